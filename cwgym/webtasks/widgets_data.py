"""Word pools of the widget kinds: countries for lists and suggestion boxes, and the
English names of months and the wording of times their instructions use."""

from __future__ import annotations

#: Countries (MiniWoB++'s choose-list and use-autocomplete draw from such a list): short
#: enough for a 160-pixel select, and no two-letter start shared by more than six.
COUNTRIES = (
    "Albania", "Algeria", "Angola", "Argentina", "Armenia", "Austria", "Bahrain", "Belarus",
    "Belgium", "Benin", "Bhutan", "Bolivia", "Brazil", "Bulgaria", "Burundi", "Canada", "Chad",
    "Chile", "China", "Colombia", "Comoros", "Croatia", "Cuba", "Cyprus", "Denmark", "Djibouti",
    "Ecuador", "Egypt", "Eritrea", "Estonia", "Ethiopia", "Fiji", "Finland", "France", "Gabon",
    "Gambia", "Georgia", "Germany", "Ghana", "Greece", "Guinea", "Guyana", "Haiti", "Honduras",
    "Hungary", "Iceland", "India", "Iran", "Iraq", "Ireland", "Israel", "Italy", "Jamaica",
    "Japan", "Jordan", "Kenya", "Kuwait", "Laos", "Latvia", "Lebanon", "Lesotho", "Liberia",
    "Libya", "Lithuania", "Madagascar", "Malawi", "Malaysia", "Mali", "Malta", "Mexico",
    "Monaco", "Mongolia", "Morocco", "Namibia", "Nauru", "Nepal", "Niger", "Nigeria", "Norway",
    "Oman", "Panama", "Paraguay", "Peru", "Poland", "Portugal", "Qatar", "Romania", "Russia",
    "Rwanda", "Samoa", "Senegal", "Serbia", "Spain", "Sudan", "Sweden", "Syria", "Tanzania",
    "Thailand", "Togo", "Tonga", "Tunisia", "Turkey", "Uganda", "Ukraine", "Uruguay", "Vanuatu",
    "Vietnam", "Yemen", "Zambia", "Zimbabwe",
)

#: Titles of the sections and dialogs the clicking widget kinds show.
SECTION_WORDS = (
    "Notice", "Update", "Welcome", "Reminder", "Warning", "Message", "Alert", "Details",
    "Summary", "Status", "Account", "Privacy", "Settings", "Offer", "Report", "Survey",
)
