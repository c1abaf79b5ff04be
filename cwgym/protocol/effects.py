"""The closed vocabulary of effect tags an outcome's ``effect.changed`` may carry."""

WINDOW_OPENED = "window.opened"
WINDOW_CLOSED = "window.closed"
WINDOW_MOVED = "window.moved"
WINDOW_FOCUSED = "window.focused"
WINDOW_TITLE = "window.title"
CONTENT = "content"
DOCUMENT = "document"
NAVIGATE = "navigate"
FOCUS = "focus"
TERMINAL = "terminal"
APPLICATION = "application"
SCROLL = "scroll"
CLIPBOARD = "clipboard"
NOTIFICATIONS = "notifications"
SETTINGS = "settings"
SHELL = "shell"
LIBRARY = "library"

TAGS = frozenset(
    {
        WINDOW_OPENED,
        WINDOW_CLOSED,
        WINDOW_MOVED,
        WINDOW_FOCUSED,
        WINDOW_TITLE,
        CONTENT,
        DOCUMENT,
        NAVIGATE,
        FOCUS,
        TERMINAL,
        APPLICATION,
        SCROLL,
        CLIPBOARD,
        NOTIFICATIONS,
        SETTINGS,
        SHELL,
        LIBRARY,
    }
)
