"""Draw the web app's home-screen icons (src/cubilete/web/static/icons/): a five-pip die on the site's green,
full bleed with the die inside the middle 60%, so one picture serves as both "any" and "maskable" icon.

Run once after changing the picture (needs Pillow, not a dependency of the project):
    python tools/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

GREEN, CREAM, INK = (15, 61, 46), (255, 253, 247), (20, 20, 20)
OUT = Path(__file__).resolve().parents[1] / "src" / "cubilete" / "web" / "static" / "icons"
PIPS = [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]


def icon(size: int) -> Image.Image:
    scale = 4  # drawn large, then reduced: smooth edges
    big = size * scale
    picture = Image.new("RGB", (big, big), GREEN)
    draw = ImageDraw.Draw(picture)
    side = big * 0.56
    left = (big - side) / 2
    draw.rounded_rectangle((left, left, left + side, left + side), radius=side * 0.18, fill=CREAM)
    centre, step, radius = big / 2, side * 0.27, side * 0.09
    for dx, dy in PIPS:
        x, y = centre + dx * step, centre + dy * step
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=INK)
    return picture.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        icon(size).save(OUT / f"icon-{size}.png", optimize=True)
    icon(180).save(OUT / "apple-touch-icon.png", optimize=True)


if __name__ == "__main__":
    main()
