"""A figure as a list of shapes in pixels, written as SVG directly and as PNG with Pillow.

A plot's layout (:mod:`leaderboard.plots`) places lines, markers and texts once; :func:`to_svg` and
:func:`to_png` draw the same scene, so the page's SVG and its PNG download agree. Coordinates are
pixels from the top left; a font size is in pixels. Nothing here imports matplotlib.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape
from itertools import pairwise
from pathlib import Path
from typing import Literal

Anchor = Literal["start", "middle", "end"]
FONT_FAMILY = "DejaVu Sans, Arial, sans-serif"
CROSS = ((-1, -3), (1, -3), (1, -1), (3, -1), (3, 1), (1, 1), (1, 3), (-1, 3), (-1, 1), (-3, 1), (-3, -1), (-1, -1))
"""A plus sign as a polygon on a grid of 6 x 6."""
UNIT_SHAPES: dict[str, tuple[tuple[float, float], ...]] = {
    "s": ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)),
    "^": ((0.0, -0.5), (0.5, 0.5), (-0.5, 0.5)),
    "v": ((0.0, 0.5), (0.5, -0.5), (-0.5, -0.5)),
    "<": ((-0.5, 0.0), (0.5, -0.5), (0.5, 0.5)),
    ">": ((0.5, 0.0), (-0.5, -0.5), (-0.5, 0.5)),
    "D": ((0.0, -0.6), (0.45, 0.0), (0.0, 0.6), (-0.45, 0.0)),
    "P": tuple((x / 6, y / 6) for x, y in CROSS),
    "X": tuple(((x - y) / 6 / math.sqrt(2) * 1.2, (x + y) / 6 / math.sqrt(2) * 1.2) for x, y in CROSS),
    "h": tuple((0.5 * math.sin(k * math.pi / 3), -0.5 * math.cos(k * math.pi / 3)) for k in range(6)),
}
"""Each marker but the circle ("o") as a polygon around (0, 0), for a marker one unit wide."""


@dataclass(frozen=True)
class Line:
    """A polyline."""

    points: tuple[tuple[float, float], ...]
    colour: str
    width: float = 1.0
    dash: tuple[float, float] | None = None
    opacity: float = 1.0


@dataclass(frozen=True)
class Marker:
    """A filled marker (a shape of :data:`UNIT_SHAPES`, or "o") of ``size`` pixels, outlined in black."""

    x: float
    y: float
    shape: str
    size: float
    fill: str
    edge_width: float = 0.7


@dataclass(frozen=True)
class Text:
    """One line of text, its baseline at ``y``; ``rotated`` turns it a quarter left, about (x, y)."""

    x: float
    y: float
    text: str
    size: float
    anchor: Anchor = "start"
    rotated: bool = False


@dataclass
class Scene:
    """A figure: its size and its shapes, drawn in order."""

    width: int
    height: int
    shapes: list[Line | Marker | Text] = field(default_factory=list)


def _n(value: float) -> str:
    """A coordinate as SVG writes it: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _polygon(marker: Marker) -> list[tuple[float, float]]:
    return [(marker.x + u * marker.size, marker.y + v * marker.size) for u, v in UNIT_SHAPES[marker.shape]]


def _svg_shape(shape: Line | Marker | Text) -> str:
    if isinstance(shape, Line):
        path = "M" + "L".join(f"{_n(x)},{_n(y)}" for x, y in shape.points)
        dash = f' stroke-dasharray="{_n(shape.dash[0])} {_n(shape.dash[1])}"' if shape.dash else ""
        opacity = f' stroke-opacity="{shape.opacity:g}"' if shape.opacity < 1 else ""
        return f'<path d="{path}" fill="none" stroke="{shape.colour}" stroke-width="{_n(shape.width)}"{dash}{opacity}/>'
    if isinstance(shape, Marker):
        style = f'fill="{shape.fill}" stroke="black" stroke-width="{_n(shape.edge_width)}"'
        if shape.shape == "o":
            return f'<circle cx="{_n(shape.x)}" cy="{_n(shape.y)}" r="{_n(shape.size / 2)}" {style}/>'
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in _polygon(shape))
        return f'<polygon points="{points}" {style}/>'
    turn = f' transform="rotate(-90 {_n(shape.x)} {_n(shape.y)})"' if shape.rotated else ""
    return (
        f'<text x="{_n(shape.x)}" y="{_n(shape.y)}" font-size="{_n(shape.size)}" '
        f'text-anchor="{shape.anchor}"{turn}>{escape(shape.text, quote=False)}</text>'
    )


def to_svg(scene: Scene) -> str:
    """The scene as a standalone SVG document."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}" '
        f'viewBox="0 0 {scene.width} {scene.height}" font-family="{FONT_FAMILY}">'
    )
    body = [f'<rect width="{scene.width}" height="{scene.height}" fill="white"/>']
    body += [_svg_shape(shape) for shape in scene.shapes]
    return "\n".join([head, *body, "</svg>"]) + "\n"


def _font_file() -> str | None:
    """DejaVu Sans as matplotlib ships it (found without importing matplotlib), the font the SVG names first."""
    from importlib.util import find_spec

    spec = find_spec("matplotlib")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf"
        if path.is_file():
            return str(path)
    return None


def _blend(colour: str, opacity: float) -> tuple[int, int, int]:
    """``colour`` (#RRGGBB) at ``opacity`` over white."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)] if colour.startswith("#") else [0, 0, 0]
    return tuple(round(255 - (255 - c) * opacity) for c in rgb)  # type: ignore[return-value]


def to_png(scene: Scene, compress_level: int = 1) -> bytes:
    """The scene drawn with Pillow, as a PNG file."""
    from io import BytesIO

    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", (scene.width, scene.height), "white")
    draw = ImageDraw.Draw(image)
    font_file = _font_file()
    fonts: dict[float, ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}

    def font(size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
        if size not in fonts:
            fonts[size] = ImageFont.truetype(font_file, size) if font_file else ImageFont.load_default(size)
        return fonts[size]

    for shape in scene.shapes:
        if isinstance(shape, Line):
            colour = _blend(shape.colour, shape.opacity)
            width = max(1, round(shape.width))
            for segment in _dashed(shape.points, shape.dash) if shape.dash else [shape.points]:
                draw.line(list(segment), fill=colour, width=width, joint="curve")
        elif isinstance(shape, Marker):
            if shape.shape == "o":
                half = shape.size / 2
                box = (shape.x - half, shape.y - half, shape.x + half, shape.y + half)
                draw.ellipse(box, fill=shape.fill, outline="black", width=1)
            else:
                draw.polygon(_polygon(shape), fill=shape.fill, outline="black", width=1)
        elif shape.rotated:
            face = font(shape.size)
            left, top, right, bottom = draw.textbbox((0, 0), shape.text, font=face, anchor="ls")
            label = Image.new("RGBA", (math.ceil(right - left) + 2, math.ceil(bottom - top) + 2), (255, 255, 255, 0))
            ImageDraw.Draw(label).text((1 - left, 1 - top), shape.text, font=face, fill="black", anchor="ls")
            turned = label.rotate(90, expand=True)
            offset = {"start": 0.0, "middle": turned.height / 2, "end": float(turned.height)}[shape.anchor]
            image.paste(turned, (round(shape.x + top - 1), round(shape.y - turned.height + offset)), turned)
        else:
            anchor = {"start": "ls", "middle": "ms", "end": "rs"}[shape.anchor]
            draw.text((shape.x, shape.y), shape.text, font=font(shape.size), fill="black", anchor=anchor)
    png = BytesIO()
    image.save(png, format="PNG", compress_level=compress_level)
    return png.getvalue()


def _dashed(points: tuple[tuple[float, float], ...], dash: tuple[float, float]) -> list[list[tuple[float, float]]]:
    """The drawn pieces of a dashed polyline: ``dash`` is (on, off) in pixels."""
    pieces: list[list[tuple[float, float]]] = []
    on, period = dash[0], dash[0] + dash[1]
    travelled = 0.0
    for (x0, y0), (x1, y1) in pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0)
        start = 0.0
        while start < length:
            phase = (travelled + start) % period
            step = min(length - start, (on - phase) if phase < on else (period - phase))
            if phase < on:
                a, b = start / length, (start + step) / length
                pieces.append([(x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)])
            start += max(step, 1e-9)
        travelled += length
    return pieces
