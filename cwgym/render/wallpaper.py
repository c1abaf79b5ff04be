"""The desktop wallpaper: an Ubuntu-style aubergine-to-orange gradient with soft shapes.

Drawn at the pixel size of its bounds (it fills them, it does not keep a square
aspect), from gradients and translucent shapes whose geometry is proportional to that
size, so any viewport gets a wallpaper composed the same way.
"""

from __future__ import annotations

import skia

__all__ = ["draw_wallpaper"]


def _shader_paint(shader: skia.Shader) -> skia.Paint:
    paint = skia.Paint()
    paint.setAntiAlias(True)
    paint.setShader(shader)
    return paint


def draw_wallpaper(canvas: skia.Canvas, w: float, h: float) -> None:
    """Paint the wallpaper over ``(0, 0, w, h)``."""
    canvas.drawRect(
        skia.Rect.MakeWH(w, h),
        _shader_paint(
            skia.GradientShader.MakeLinear(
                [skia.Point(0, 0), skia.Point(w, h)],
                [
                    skia.Color(44, 4, 40),
                    skia.Color(94, 22, 84),
                    skia.Color(168, 44, 84),
                    skia.Color(233, 84, 32),
                ],
                [0.0, 0.45, 0.78, 1.0],
            )
        ),
    )
    glow = max(w, h) * 0.55
    canvas.drawRect(
        skia.Rect.MakeWH(w, h),
        _shader_paint(
            skia.GradientShader.MakeRadial(
                skia.Point(w * 0.78, h * 0.92),
                glow,
                [skia.Color(255, 140, 60, 110), skia.Color(255, 140, 60, 0)],
            )
        ),
    )
    # broad translucent ribbons sweeping across, like the Yaru wallpapers
    for k, (alpha, y0, y1) in enumerate(((26, 0.62, 0.30), (18, 0.82, 0.46), (14, 1.02, 0.64))):
        path = skia.Path()
        path.moveTo(0, h * y0)
        path.cubicTo(w * 0.3, h * (y0 - 0.18), w * 0.6, h * (y1 + 0.22), w, h * y1)
        path.lineTo(w, h)
        path.lineTo(0, h)
        path.close()
        paint = skia.Paint()
        paint.setAntiAlias(True)
        paint.setColor(skia.Color(255, 196 - 30 * k, 220 - 40 * k, alpha))
        canvas.drawPath(path, paint)
