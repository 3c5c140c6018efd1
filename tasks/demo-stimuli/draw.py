"""Draw the twelve demo "paintings" shipped with avd and write their manifest.

The demo must run without downloading anything, and artworks under copyright cannot be
shipped, so the demo set is painted here with Pillow: each scene is laid down as
gradients and many overlapping shapes, then gone over with sampled brush strokes and a
canvas grain so it reads as a painting rather than a diagram. Every random choice comes
from a generator seeded with the scene's name, so running this again gives the same
pictures (for the same Pillow version).

    python tasks/demo-stimuli/draw.py          # writes *.jpg and manifest.jsonl here
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter

HERE = Path(__file__).resolve().parent
W, H = 800, 600
SOURCE = "drawn for the avd demo (public domain, CC0)"

Colour = tuple[int, int, int]
Angle = Callable[[float, float], float]


# --------------------------------------------------------------------------- tools


def mix(a: Colour, b: Colour, t: float) -> Colour:
    t = max(0.0, min(1.0, t))
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def jitter(rng: random.Random, c: Colour, amount: int) -> Colour:
    return tuple(max(0, min(255, v + rng.randint(-amount, amount))) for v in c)  # type: ignore[return-value]


def rgba(c: Colour, alpha: int) -> tuple[int, int, int, int]:
    return (*c, alpha)


def ramp(stops: list[tuple[float, Colour]], t: float) -> Colour:
    """The colour at ``t`` along a list of (position, colour) stops."""
    for (p0, c0), (p1, c1) in zip(stops, stops[1:], strict=False):
        if t <= p1:
            return mix(c0, c1, (t - p0) / (p1 - p0) if p1 > p0 else 0)
    return stops[-1][1]


def vertical_gradient(img: Image.Image, top: int, bottom: int, stops: list[tuple[float, Colour]]) -> None:
    draw = ImageDraw.Draw(img)
    span = max(1, bottom - top - 1)
    for y in range(top, bottom):
        draw.line([(0, y), (img.width, y)], fill=ramp(stops, (y - top) / span))


def overlay(img: Image.Image, paint: Callable[[ImageDraw.ImageDraw], None], blur: float = 0) -> None:
    """Paint translucent shapes on a layer of their own, optionally soften it, and lay it on."""
    layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
    paint(ImageDraw.Draw(layer))
    if blur:
        layer = layer.filter(ImageFilter.GaussianBlur(blur))
    img.alpha_composite(layer)


def glow(img: Image.Image, x: float, y: float, radius: float, colour: Colour, strength: int = 200) -> None:
    def paint(d: ImageDraw.ImageDraw) -> None:
        steps = 24
        for i in range(steps, 0, -1):
            r = radius * i / steps
            d.ellipse((x - r, y - r, x + r, y + r), fill=rgba(colour, int(strength * (1 - i / steps) ** 1.6)))

    overlay(img, paint, blur=radius / 6)


def blob(rng: random.Random, x: float, y: float, rx: float, ry: float, rough: float = 0.2, n: int = 18):
    """Points of an irregular ellipse: clouds, bushes, rocks, heads in a crowd."""
    start = rng.uniform(0, math.tau)
    return [
        (
            x + math.cos(start + math.tau * i / n) * rx * rng.uniform(1 - rough, 1 + rough),
            y + math.sin(start + math.tau * i / n) * ry * rng.uniform(1 - rough, 1 + rough),
        )
        for i in range(n)
    ]


def ridge(rng: random.Random, base: float, amplitude: float, step: int = 20, rough: float = 1.0):
    """A jagged skyline from left to right, closed along the bottom of the canvas."""
    points = [(0.0, float(H))]
    y = base
    for x in range(0, W + step, step):
        y += rng.uniform(-amplitude, amplitude) * rough
        y = min(max(y, base - amplitude * 3), base + amplitude * 3)
        points.append((float(x), y))
    points.append((float(W), float(H)))
    return points


def brushwork(
    img: Image.Image,
    rng: random.Random,
    count: int,
    length: float,
    width: int,
    angle: Angle,
    spread: int = 10,
) -> Image.Image:
    """Re-paint the picture with short strokes, each in the colour found where it starts."""
    source = img.convert("RGB")
    pixels = source.load()
    out = source.copy()
    draw = ImageDraw.Draw(out)
    for _ in range(count):
        x, y = rng.uniform(0, W - 1), rng.uniform(0, H - 1)
        colour = jitter(rng, pixels[int(x), int(y)], spread)
        a = angle(x, y) + rng.gauss(0, 0.18)
        half = length * rng.uniform(0.5, 1.3) / 2
        dx, dy = math.cos(a) * half, math.sin(a) * half
        w = max(1, round(width * rng.uniform(0.6, 1.3)))
        draw.line([(x - dx, y - dy), (x + dx, y + dy)], fill=colour, width=w)
        r = w / 2
        for ex, ey in ((x - dx, y - dy), (x + dx, y + dy)):
            draw.ellipse((ex - r, ey - r, ex + r, ey + r), fill=colour)
    return Image.blend(source, out, 0.8)


def finish(img: Image.Image, rng: random.Random, grain: float = 0.35, vignette: float = 0.35) -> Image.Image:
    """Canvas grain and a soft darkening towards the corners, as on an old varnished canvas."""
    rgb = img.convert("RGB")
    noise = Image.frombytes("L", (W, H), rng.randbytes(W * H)).filter(ImageFilter.GaussianBlur(0.7))
    weave = Image.new("L", (W, H), 128)
    wd = ImageDraw.Draw(weave)
    for x in range(0, W, 3):
        wd.line([(x, 0), (x, H)], fill=140)
    for y in range(0, H, 3):
        wd.line([(0, y), (W, y)], fill=118)
    texture = ImageChops.add(noise, weave, scale=2.0)
    textured = ImageChops.soft_light(rgb, Image.merge("RGB", (texture,) * 3))
    rgb = Image.blend(rgb, textured, grain)
    if vignette:
        mask = Image.new("L", (W, H), 0)
        ImageDraw.Draw(mask).ellipse((-W * 0.15, -H * 0.2, W * 1.15, H * 1.2), fill=255)
        mask = mask.filter(ImageFilter.GaussianBlur(120))
        dark = Image.blend(rgb, Image.new("RGB", (W, H), (20, 14, 10)), vignette)
        rgb = Image.composite(rgb, dark, mask)
    return rgb


def canvas(colour: Colour = (0, 0, 0)) -> Image.Image:
    return Image.new("RGBA", (W, H), rgba(colour, 255))


def horizontal(x: float, y: float) -> float:
    return 0.0


def vertical(x: float, y: float) -> float:
    return math.pi / 2


def dabs(rng: random.Random) -> Angle:
    return lambda x, y: rng.uniform(0, math.pi)


# -------------------------------------------------------------------------- scenes


def sunset_over_water(rng: random.Random) -> Image.Image:
    horizon = 360
    img = canvas()
    vertical_gradient(
        img,
        0,
        horizon,
        [(0, (34, 28, 82)), (0.4, (118, 54, 112)), (0.75, (228, 104, 72)), (1, (255, 196, 120))],
    )
    vertical_gradient(img, horizon, H, [(0, (214, 118, 92)), (0.25, (126, 62, 104)), (1, (22, 20, 58))])
    sun_x = 470
    glow(img, sun_x, horizon - 18, 260, (255, 160, 80), 170)
    overlay(
        img,
        lambda d: d.ellipse((sun_x - 38, horizon - 56, sun_x + 38, horizon + 20), fill=(255, 232, 170, 255)),
    )
    # the sea cuts the sun at the horizon
    vertical_gradient_box(img, horizon, horizon + 24, (214, 118, 92), (190, 100, 96))
    for _ in range(9):
        cx, cy = rng.uniform(-50, W + 50), rng.uniform(40, horizon - 90)
        rx, ry = rng.uniform(90, 220), rng.uniform(10, 26)
        lit = blob(rng, cx, cy + ry * 0.5, rx, ry, 0.25)
        body = blob(rng, cx, cy, rx, ry, 0.25)
        overlay(
            img,
            lambda d, lit=lit, body=body, cy=cy: (
                d.polygon(lit, fill=(255, 150, 90, 150)),
                d.polygon(body, fill=rgba(mix((80, 40, 96), (150, 70, 110), cy / horizon), 190)),
            ),
            blur=4,
        )
    headland = [(0, horizon)] + [
        (x, horizon - 46 * math.sin(math.pi * x / 320) ** 0.6) for x in range(0, 321, 10)
    ]
    overlay(img, lambda d: d.polygon(headland + [(320, horizon)], fill=(48, 26, 58, 255)), blur=1.5)

    def reflection(d: ImageDraw.ImageDraw) -> None:
        for _ in range(260):
            t = rng.random() ** 1.3
            y = horizon + 4 + t * (H - horizon)
            x = sun_x + rng.gauss(0, 18 + 90 * t)
            length = rng.uniform(8, 30 + 70 * t)
            colour = mix((255, 226, 150), (236, 112, 70), t + rng.uniform(-0.2, 0.2))
            d.line(
                [(x - length / 2, y), (x + length / 2, y)],
                fill=rgba(colour, rng.randint(120, 230)),
                width=rng.randint(2, 4),
            )
        for _ in range(500):
            y = rng.uniform(horizon + 6, H)
            x = rng.uniform(0, W)
            length = rng.uniform(10, 60)
            shade = (12, 10, 40) if rng.random() < 0.6 else (200, 110, 120)
            d.line([(x, y), (x + length, y)], fill=rgba(shade, 70), width=2)

    overlay(img, reflection, blur=0.8)
    img = brushwork(img, rng, 16000, 18, 4, horizontal)
    return finish(img, rng)


def vertical_gradient_box(img: Image.Image, top: int, bottom: int, a: Colour, b: Colour) -> None:
    """A horizontal band fading from colour ``a`` to ``b`` (used to cut shapes at a horizon)."""
    draw = ImageDraw.Draw(img)
    for y in range(top, bottom):
        draw.line([(0, y), (W, y)], fill=mix(a, b, (y - top) / max(1, bottom - top)))


def stormy_sea(rng: random.Random) -> Image.Image:
    horizon = 270
    img = canvas()
    vertical_gradient(img, 0, horizon, [(0, (28, 32, 40)), (0.6, (72, 80, 88)), (1, (140, 144, 130))])
    vertical_gradient(img, horizon, H, [(0, (60, 92, 88)), (1, (12, 28, 34))])
    glow(img, 620, 110, 220, (236, 226, 176), 140)

    def clouds(d: ImageDraw.ImageDraw) -> None:
        for _ in range(90):
            x, y = rng.uniform(-80, W + 80), rng.uniform(-40, horizon - 30)
            shade = (26, 28, 34) if rng.random() < 0.65 else (160, 160, 148)
            d.polygon(
                blob(rng, x, y, rng.uniform(40, 150), rng.uniform(12, 40), 0.35),
                fill=rgba(shade, rng.randint(40, 110)),
            )

    overlay(img, clouds, blur=7)
    overlay(
        img,
        lambda d: [
            d.line([(x, 0), (x - 60, horizon)], fill=(40, 44, 52, 40), width=14) for x in range(420, 800, 26)
        ],
        blur=10,
    )
    # rows of waves from the horizon to the viewer, bigger and darker as they come closer
    rows = 12
    for row in range(rows):
        t = row / (rows - 1)
        base = horizon + 10 + (H - horizon + 60) * t**1.35
        amp = 5 + 110 * t**1.6
        wavelength = 80 + 380 * t
        phase = rng.uniform(0, math.tau)
        crest = [
            (
                float(x),
                base
                - amp * (0.5 + 0.5 * math.sin(x / wavelength * math.tau + phase)) ** 2.5
                + rng.uniform(-1, 1) * (1 + 3 * t),
            )
            for x in range(-10, W + 20, 6)
        ]
        face = mix((96, 132, 122), (30, 66, 66), t)
        trough = mix((40, 70, 70), (6, 20, 26), t)

        def wave(d: ImageDraw.ImageDraw, crest=crest, face=face, trough=trough, t=t, amp=amp) -> None:
            depth = 14 + amp * 1.6
            for k in range(10, -1, -1):
                off = depth * k / 10
                d.polygon(
                    [(x, y + off) for x, y in crest] + [(W + 20, H + 200), (-10, H + 200)],
                    fill=rgba(mix(face, trough, k / 10), 255),
                )
            d.line(crest, fill=rgba((214, 228, 220), int(110 + 120 * t)), width=max(1, int(1 + 5 * t)))

        overlay(img, wave, blur=1.0 + 1.5 * (1 - t))

        def foam(d: ImageDraw.ImageDraw, crest=crest, t=t, amp=amp, base=base) -> None:
            for x, y in crest:
                height = (base - y) / max(amp, 1)
                for _ in range(int(1 + 8 * t * height)):
                    r = rng.uniform(1, 2 + 6 * t)
                    fx, fy = x + rng.uniform(-6, 6), y + abs(rng.gauss(0, 4 + 30 * t * height))
                    d.ellipse(
                        (fx - r, fy - r * 0.6, fx + r, fy + r * 0.6),
                        fill=(226, 236, 230, rng.randint(60, 190)),
                    )

        overlay(img, foam, blur=0.7)
        if row == 5:
            top = min(crest[52:64], key=lambda p: p[1])
            boat(img, top[0], top[1] + 6, scale=1.5)
    img = brushwork(
        img,
        rng,
        18000,
        16,
        4,
        lambda x, y: (
            math.sin(x / 70) * 0.9 + math.cos(y / 45) * 0.5 if y < horizon else math.sin(x / 90) * 0.35
        ),
    )
    # the lightning goes on last so the brush strokes do not break it up
    bolt = [(190.0, 40.0)]
    while bolt[-1][1] < horizon:
        x, y = bolt[-1]
        bolt.append((x + rng.uniform(-24, 24), y + rng.uniform(14, 34)))
    branch = [bolt[3]]
    for _ in range(4):
        x, y = branch[-1]
        branch.append((x - rng.uniform(8, 26), y + rng.uniform(10, 26)))
    img = img.convert("RGBA")
    glow(img, 200, 160, 160, (210, 214, 255), 110)
    overlay(
        img,
        lambda d: (
            d.line(bolt, fill=(200, 210, 255, 170), width=10),
            d.line(branch, fill=(200, 210, 255, 120), width=6),
        ),
        blur=5,
    )
    overlay(
        img,
        lambda d: (
            d.line(bolt, fill=(250, 250, 255, 255), width=3),
            d.line(branch, fill=(240, 240, 255, 230), width=1),
        ),
        blur=0.6,
    )
    return finish(img, rng, vignette=0.45)


def boat(img: Image.Image, x: float, y: float, scale: float = 1.0) -> None:
    tilt = math.radians(-16)

    def rot(px: float, py: float) -> tuple[float, float]:
        px, py = px * scale, py * scale
        return (x + px * math.cos(tilt) - py * math.sin(tilt), y + px * math.sin(tilt) + py * math.cos(tilt))

    hull = [rot(-30, -6), rot(32, -9), rot(22, 7), rot(-21, 7)]
    sail = [rot(2, -10), rot(2, -60), rot(28, -14)]
    jib = [rot(-2, -12), rot(-2, -48), rot(-24, -12)]

    def paint(d: ImageDraw.ImageDraw) -> None:
        d.polygon(sail, fill=(230, 218, 188, 255))
        d.polygon(jib, fill=(190, 178, 154, 255))
        d.line([rot(0, -8), rot(0, -64)], fill=(40, 28, 20, 255), width=2)
        d.polygon(hull, fill=(76, 40, 26, 255))
        d.line([rot(-30, -6), rot(32, -9)], fill=(170, 60, 40, 255), width=3)

    overlay(img, paint, blur=0.6)


def dark_forest_path(rng: random.Random) -> Image.Image:
    vx, vy = 402, 318
    img = canvas()
    vertical_gradient(img, 0, H, [(0, (6, 14, 10)), (0.5, (30, 42, 32)), (1, (14, 20, 12))])
    glow(img, vx, vy - 20, 260, (220, 226, 176), 220)
    overlay(img, lambda d: d.rectangle((0, vy, W, H), fill=(22, 30, 18, 255)), blur=3)

    def path(d: ImageDraw.ImageDraw) -> None:
        steps = 60
        for i in range(steps):
            t0, t1 = i / steps, (i + 1) / steps
            y0, y1 = vy + (H - vy) * t0, vy + (H - vy) * t1
            h0, h1 = 6 + 230 * t0**1.1, 6 + 230 * t1**1.1
            wobble = math.sin(t0 * 5) * 30 * t0
            c = mix((196, 190, 146), (58, 48, 32), t0**0.6)
            d.polygon(
                [
                    (vx - h0 + wobble, y0),
                    (vx + h0 + wobble, y0),
                    (vx + h1 + wobble, y1),
                    (vx - h1 + wobble, y1),
                ],
                fill=rgba(c, 255),
            )
        for _ in range(700):
            t = rng.random()
            y = vy + (H - vy) * t
            x = vx + math.sin(t * 5) * 30 * t + rng.uniform(-1, 1) * (6 + 230 * t)
            r = 1 + 4 * t
            c = rng.choice([(36, 28, 18), (110, 96, 64), (120, 70, 30), (150, 140, 100)])
            d.ellipse((x - r, y - r * 0.5, x + r, y + r * 0.5), fill=rgba(c, 200))

    overlay(img, path, blur=1.2)
    # three depths of trees: pale in the mist far away, near-black close up, each lit from the path
    for depth, count, pale, widths in (
        (0, 46, 0.72, (3, 9)),
        (1, 26, 0.38, (10, 22)),
        (2, 10, 0.0, (30, 70)),
    ):
        colour = mix((12, 16, 12), (160, 170, 136), pale)
        ground = vy + (8, 50, 170)[depth]

        def trees(
            d: ImageDraw.ImageDraw, colour=colour, ground=ground, count=count, widths=widths, depth=depth
        ) -> None:
            for _ in range(count):
                side = rng.choice((-1, 1))
                x = vx + side * rng.uniform(40 + 90 * depth, 440)
                w = rng.uniform(*widths)
                bottom = ground + rng.uniform(-8, 30) * (depth + 1)
                lean = rng.uniform(-14, 14)
                c = jitter(rng, colour, 6)
                d.polygon(
                    [
                        (x - w / 2, bottom),
                        (x + w / 2, bottom),
                        (x + w * 0.32 + lean, -10),
                        (x - w * 0.32 + lean, -10),
                    ],
                    fill=rgba(c, 255),
                )
                lit = -side
                edge_x = x + lit * w * 0.4
                d.line(
                    [(edge_x, bottom), (edge_x + lean, -10)],
                    fill=rgba(mix(c, (200, 206, 160), 0.35), 255),
                    width=max(1, int(w / 7)),
                )
                d.polygon(
                    [(x - w / 2 - 6, bottom), (x + w / 2 + 6, bottom), (x, bottom - w * 0.8)],
                    fill=rgba(c, 255),
                )
                for _ in range(depth * 3):
                    by = rng.uniform(0, bottom * 0.5)
                    bx = x + rng.choice((-1, 1)) * rng.uniform(20, 50 + 40 * depth)
                    d.line(
                        [(x, by + 40), (bx, by - rng.uniform(10, 40))],
                        fill=rgba(c, 255),
                        width=max(2, int(w / 5)),
                    )

        overlay(img, trees, blur=(3, 1.4, 0.6)[depth])
        overlay(
            img,
            lambda d, depth=depth: d.ellipse(
                (vx - 420, vy - 160 + depth * 40, vx + 420, vy + 60 + depth * 40),
                fill=(180, 190, 156, 40 - depth * 12),
            ),
            blur=40,
        )

    def rays(d: ImageDraw.ImageDraw) -> None:
        for _ in range(7):
            x = vx + rng.uniform(-160, 160)
            spread = rng.uniform(10, 30)
            d.polygon(
                [
                    (x - spread, -20),
                    (x + spread, -20),
                    (vx + (x - vx) * 0.2 + spread * 3, H),
                    (vx + (x - vx) * 0.2 - spread * 2, H),
                ],
                fill=(220, 226, 180, 26),
            )

    overlay(img, rays, blur=18)

    def canopy(d: ImageDraw.ImageDraw) -> None:
        for _ in range(180):
            x, y = rng.uniform(-40, W + 40), rng.uniform(-60, 140)
            if abs(x - vx) < 110 and y > 70:
                continue
            d.polygon(
                blob(rng, x, y, rng.uniform(24, 80), rng.uniform(16, 44), 0.4),
                fill=rgba(jitter(rng, (16, 34, 18), 10), 210),
            )

    overlay(img, canopy, blur=2.5)

    def undergrowth(d: ImageDraw.ImageDraw) -> None:
        for _ in range(1400):
            y = rng.uniform(vy, H + 20)
            t = (y - vy) / (H - vy)
            half = 6 + 230 * t
            x = rng.uniform(0, W)
            centre = vx + math.sin(t * 5) * 30 * t
            if abs(x - centre) < half * 0.85:
                continue
            h = 4 + 34 * t
            lit = max(0.0, 1 - abs(x - centre) / 300) * (1 - t)
            c = mix(jitter(rng, (26, 48, 22), 12), (150, 170, 110), lit)
            d.line([(x, y), (x + rng.uniform(-7, 7), y - h)], fill=rgba(c, 230), width=2)

    overlay(img, undergrowth)
    img = brushwork(img, rng, 14000, 12, 3, vertical)
    return finish(img, rng, vignette=0.55)


def bright_flower_field(rng: random.Random) -> Image.Image:
    horizon = 250
    img = canvas()
    vertical_gradient(img, 0, horizon, [(0, (70, 130, 214)), (1, (190, 220, 240))])
    for cx in (80, 330, 600, 760):
        cloud(
            img,
            rng,
            cx + rng.uniform(-40, 40),
            rng.uniform(80, 160),
            rng.uniform(130, 200),
            rng.uniform(60, 90),
            (252, 250, 244),
            (186, 194, 214),
        )
    overlay(img, lambda d: d.polygon(ridge(rng, horizon - 20, 6, 30), fill=(120, 150, 170, 255)), blur=2)
    overlay(img, lambda d: d.polygon(ridge(rng, horizon + 5, 4, 40), fill=(96, 150, 80, 255)), blur=1)
    vertical_gradient(img, horizon + 20, H, [(0, (110, 168, 70)), (1, (50, 110, 38))])
    overlay(img, lambda d: d.rectangle((0, horizon + 5, W, horizon + 30), fill=(110, 168, 70, 160)), blur=8)
    palette = [(222, 40, 40), (250, 210, 40), (246, 244, 236), (150, 80, 190), (244, 130, 40), (230, 90, 150)]

    def flowers(d: ImageDraw.ImageDraw) -> None:
        items = []
        for _ in range(7000):
            t = rng.random() ** 1.6
            items.append((horizon + 15 + t * (H - horizon), rng.uniform(-10, W + 10)))
        for y, x in sorted(items):
            t = (y - horizon) / (H - horizon)
            # the colours drift in patches, like sown rows
            patch = int(x / 160 + math.sin(y / 40) * 1.5 + t * 3) % len(palette)
            colour = palette[patch] if rng.random() < 0.7 else rng.choice(palette)
            colour = jitter(rng, colour, 20)
            r = 0.8 + 9 * t**1.5
            if r > 5:
                d.line([(x, y), (x + rng.uniform(-3, 3), y + r * 2.5)], fill=(40, 100, 30, 255), width=2)
                for k in range(5):
                    a = k * math.tau / 5 + rng.uniform(0, 1)
                    px, py = x + math.cos(a) * r * 0.7, y + math.sin(a) * r * 0.5
                    d.ellipse(
                        (px - r * 0.55, py - r * 0.45, px + r * 0.55, py + r * 0.45), fill=rgba(colour, 255)
                    )
                d.ellipse(
                    (x - r * 0.3, y - r * 0.3, x + r * 0.3, y + r * 0.3),
                    fill=(240, 190, 30, 255) if colour[2] > 150 else (60, 40, 20, 255),
                )
            else:
                d.ellipse((x - r, y - r * 0.6, x + r, y + r * 0.6), fill=rgba(colour, 235))

    overlay(img, flowers)
    img = brushwork(img, rng, 16000, 10, 4, dabs(rng), spread=14)
    return finish(img, rng, grain=0.3, vignette=0.2)


def circles_composition(rng: random.Random) -> Image.Image:
    img = canvas()
    vertical_gradient(img, 0, H, [(0, (20, 22, 38)), (0.6, (34, 30, 48)), (1, (16, 14, 22))])
    glow(img, 360, 280, 300, (60, 60, 110), 160)
    palette = [
        (230, 70, 60),
        (250, 200, 60),
        (60, 120, 210),
        (240, 236, 220),
        (90, 180, 120),
        (200, 90, 190),
        (246, 140, 50),
    ]
    big = (330, 270, 170)
    overlay(
        img,
        lambda d: d.ellipse(
            (big[0] - big[2], big[1] - big[2], big[0] + big[2], big[1] + big[2]), fill=(16, 16, 30, 255)
        ),
    )
    glow(img, big[0], big[1], big[2] * 1.25, (120, 140, 230), 140)
    for i in range(34):
        r = rng.choice((rng.uniform(6, 18), rng.uniform(18, 50), rng.uniform(50, 100))) if i else 110
        x = rng.uniform(60, W - 60) if i else big[0] - 20
        y = rng.uniform(60, H - 60) if i else big[1] - 30
        colour = palette[i % len(palette)]
        if rng.random() < 0.4:
            glow(img, x, y, r * 1.6, colour, 120)
        alpha = rng.randint(150, 235)
        ring = rng.choice((None, None, rng.choice(palette)))

        def disc(d: ImageDraw.ImageDraw, x=x, y=y, r=r, colour=colour, alpha=alpha, ring=ring) -> None:
            d.ellipse((x - r, y - r, x + r, y + r), fill=rgba(colour, alpha))
            if ring:
                d.ellipse((x - r, y - r, x + r, y + r), outline=rgba(ring, 255), width=max(2, int(r / 8)))
                d.ellipse(
                    (x - r / 2, y - r / 2, x + r / 2, y + r / 2), fill=rgba(mix(colour, ring, 0.5), 220)
                )

        overlay(img, disc, blur=0.8)

    def lines(d: ImageDraw.ImageDraw) -> None:
        for _ in range(5):
            x0, y0 = rng.uniform(0, W), rng.uniform(0, H)
            a = rng.uniform(0, math.pi)
            d.line(
                [(x0, y0), (x0 + math.cos(a) * 500, y0 + math.sin(a) * 500)],
                fill=(230, 226, 210, 150),
                width=rng.randint(1, 4),
            )
        for i in range(6):
            for j in range(4):
                if (i + j) % 2:
                    d.rectangle(
                        (620 + i * 14, 470 + j * 14, 634 + i * 14, 484 + j * 14), fill=(235, 230, 215, 200)
                    )

    overlay(img, lines, blur=0.5)
    img = brushwork(img, rng, 9000, 12, 3, lambda x, y: math.atan2(y - 300, x - 400) + math.pi / 2, spread=8)
    return finish(img, rng, grain=0.4, vignette=0.25)


def still_life_with_vase(rng: random.Random) -> Image.Image:
    table = 400
    img = canvas()
    vertical_gradient(img, 0, table, [(0, (56, 48, 34)), (1, (112, 96, 66))])
    glow(img, 250, 200, 320, (190, 160, 100), 110)
    vertical_gradient(img, table, H, [(0, (122, 74, 38)), (1, (64, 36, 20))])

    def grain(d: ImageDraw.ImageDraw) -> None:
        for _ in range(260):
            y = rng.uniform(table + 6, H)
            x = rng.uniform(-100, W)
            d.line(
                [(x, y), (x + rng.uniform(60, 240), y + rng.uniform(-2, 2))],
                fill=rgba(jitter(rng, (70, 38, 18), 14), 120),
                width=2,
            )
        d.line([(0, table), (W, table)], fill=(170, 120, 70, 255), width=4)

    overlay(img, grain, blur=0.8)
    cloth = [(430, table - 2), (780, table - 6), (800, 520), (700, H), (470, H), (500, 500)]
    overlay(img, lambda d: d.polygon(cloth, fill=(226, 222, 208, 255)), blur=1)
    overlay(
        img,
        lambda d: [
            d.line(
                [(520 + k * 55, table + 8), (500 + k * 60 + rng.uniform(-20, 20), H)],
                fill=(150, 160, 176, 120),
                width=rng.randint(6, 14),
            )
            for k in range(5)
        ],
        blur=6,
    )
    vx, vy = 300, 330
    overlay(
        img, lambda d: d.ellipse((vx - 110, table + 36, vx + 140, table + 72), fill=(20, 12, 8, 150)), blur=12
    )
    # the vase: a bulb and a neck, shaded from the light on the left
    for i in range(16):
        t = i / 15
        c = mix((24, 40, 92), (120, 160, 220), t)
        shrink = 1 - t * 0.8
        overlay(
            img,
            lambda d, c=c, shrink=shrink, t=t: (
                d.ellipse(
                    (
                        vx - 85 * shrink - 18 * t,
                        vy - 70 * shrink - 14 * t,
                        vx + 85 * shrink - 18 * t,
                        vy + 90 * shrink - 14 * t,
                    ),
                    fill=rgba(c, 255),
                ),
                d.rectangle(
                    (vx - 32 * shrink - 10 * t, vy - 150, vx + 32 * shrink - 10 * t, vy - 40),
                    fill=rgba(c, 255),
                ),
            ),
            blur=1.5,
        )
    overlay(img, lambda d: d.ellipse((vx - 40, vy - 160, vx + 40, vy - 140), fill=(30, 40, 80, 255)))
    overlay(img, lambda d: d.ellipse((vx - 52, vy - 30, vx - 30, vy + 20), fill=(240, 246, 255, 200)), blur=4)
    # flowers spraying out of the neck
    heads = []
    for _ in range(13):
        a = rng.uniform(-2.6, -0.5)
        reach = rng.uniform(110, 230)
        heads.append(
            (
                vx + math.cos(a) * reach,
                vy - 150 + math.sin(a) * reach * 0.8,
                rng.uniform(14, 30),
                rng.choice([(220, 50, 50), (250, 214, 70), (244, 240, 230), (220, 120, 170), (240, 140, 40)]),
            )
        )

    def bouquet(d: ImageDraw.ImageDraw) -> None:
        for hx, hy, _, _ in heads:
            d.line(
                [
                    (vx + rng.uniform(-10, 10), vy - 148),
                    ((vx + hx) / 2 + rng.uniform(-20, 20), (vy - 150 + hy) / 2),
                    (hx, hy),
                ],
                fill=(50, 90, 40, 255),
                width=3,
            )
            for _ in range(2):
                lx, ly = (vx + hx) / 2 + rng.uniform(-30, 30), (vy - 150 + hy) / 2 + rng.uniform(-20, 20)
                d.polygon(
                    blob(rng, lx, ly, rng.uniform(16, 26), rng.uniform(6, 10), 0.2, 10),
                    fill=(60, 110, 50, 255),
                )
        for hx, hy, r, c in heads:
            for k in range(7):
                a = k * math.tau / 7 + rng.uniform(0, 0.4)
                px, py = hx + math.cos(a) * r * 0.6, hy + math.sin(a) * r * 0.6
                d.ellipse(
                    (px - r * 0.55, py - r * 0.55, px + r * 0.55, py + r * 0.55),
                    fill=rgba(jitter(rng, c, 22), 255),
                )
            d.ellipse((hx - r * 0.3, hy - r * 0.3, hx + r * 0.3, hy + r * 0.3), fill=(90, 60, 20, 255))

    overlay(img, bouquet, blur=0.8)

    def fruit(d: ImageDraw.ImageDraw) -> None:
        for x, y, r, base in (
            (520, 440, 42, (180, 30, 26)),
            (600, 452, 36, (200, 150, 30)),
            (470, 468, 30, (160, 40, 30)),
        ):
            d.ellipse((x - r, y + r * 0.6, x + r, y + r * 1.1), fill=(40, 30, 24, 120))
            for i in range(10):
                t = i / 9
                rr = r * (1 - t * 0.7)
                c = mix(base, mix(base, (255, 240, 200), 0.6), t)
                d.ellipse(
                    (x - rr - r * 0.3 * t, y - rr - r * 0.3 * t, x + rr - r * 0.3 * t, y + rr - r * 0.3 * t),
                    fill=rgba(c, 255),
                )
        for _ in range(22):
            gx, gy = rng.gauss(660, 24), rng.gauss(470, 14)
            d.ellipse((gx - 11, gy - 11, gx + 11, gy + 11), fill=rgba(jitter(rng, (80, 30, 90), 16), 255))
            d.ellipse((gx - 6, gy - 7, gx - 1, gy - 2), fill=(190, 150, 200, 200))
        for _ in range(5):
            px, py = rng.uniform(160, 420), rng.uniform(table + 20, table + 70)
            d.polygon(blob(rng, px, py, 9, 5, 0.3, 8), fill=(190, 60, 60, 230))

    overlay(img, fruit, blur=0.8)
    img = brushwork(img, rng, 15000, 14, 4, dabs(rng), spread=10)
    return finish(img, rng, vignette=0.45)


def city_street_at_night(rng: random.Random) -> Image.Image:
    street = 400
    img = canvas()
    vertical_gradient(img, 0, street, [(0, (8, 10, 32)), (0.7, (40, 30, 72)), (1, (120, 66, 70))])
    vertical_gradient(img, street, H, [(0, (46, 40, 54)), (1, (10, 10, 18))])
    lights: list[tuple[float, float, Colour, float]] = []
    x = -20.0
    while x < W:
        w = rng.uniform(70, 150)
        top = rng.uniform(90, 300)
        body = jitter(rng, (30, 26, 44), 10)
        windows = []
        for wy in range(int(top + 14), street - 30, 26):
            for wx in range(int(x + 10), int(x + w - 18), 22):
                if rng.random() < 0.42:
                    c = rng.choice([(255, 210, 120), (250, 180, 90), (220, 230, 255), (255, 230, 160)])
                    windows.append((wx, wy, c))
                    if rng.random() < 0.15:
                        lights.append((wx + 6, wy + 8, c, 0.5))
                else:
                    windows.append((wx, wy, (16, 16, 28)))

        def building(d: ImageDraw.ImageDraw, x=x, w=w, top=top, body=body, windows=windows) -> None:
            d.rectangle((x, top, x + w, street), fill=rgba(body, 255))
            d.line([(x, top), (x + w, top)], fill=(76, 64, 96, 255), width=3)
            d.line(
                [(x + w - 3, top), (x + w - 3, street)], fill=rgba(mix(body, (0, 0, 0), 0.5), 255), width=5
            )
            for wx, wy, c in windows:
                d.rectangle((wx, wy, wx + 12, wy + 16), fill=rgba(c, 255))
                d.line([(wx + 6, wy), (wx + 6, wy + 16)], fill=rgba(mix(c, body, 0.6), 255), width=1)

        overlay(img, building, blur=0.7)
        x += w + rng.uniform(-10, 6)
    for sx, sy, sw, c in ((120, 300, 70, (255, 60, 80)), (560, 270, 50, (60, 200, 255))):
        glow(img, sx + sw / 2, sy + 10, 100, c, 170)
        overlay(
            img,
            lambda d, sx=sx, sy=sy, sw=sw, c=c: d.rectangle(
                (sx, sy, sx + sw, sy + 20), fill=rgba(mix(c, (255, 255, 255), 0.5), 255)
            ),
            blur=1,
        )
        lights.append((sx + sw / 2, sy + 10, c, 1.0))
    overlay(img, lambda d: d.rectangle((0, street, W, street + 26), fill=(64, 58, 70, 255)))
    overlay(img, lambda d: d.line([(0, street + 26), (W, street + 26)], fill=(120, 110, 120, 255), width=3))
    for lx in (70, 330, 730):
        glow(img, lx + 24, 258, 150, (255, 200, 110), 200)
        overlay(
            img,
            lambda d, lx=lx: (
                d.line([(lx, street + 22), (lx, 250)], fill=(10, 10, 14, 255), width=6),
                d.line([(lx, 250), (lx + 26, 250)], fill=(10, 10, 14, 255), width=5),
                d.polygon(
                    [(lx + 14, 250), (lx + 36, 250), (lx + 30, 262), (lx + 20, 262)],
                    fill=(255, 240, 200, 255),
                ),
            ),
        )
        lights.append((lx + 24, 258, (255, 210, 130), 1.0))

    def reflections(d: ImageDraw.ImageDraw) -> None:
        for lx, _, c, strength in lights:
            top = street + 36
            length = rng.uniform(80, 200) * strength
            for k in range(6):
                off = rng.gauss(0, 4)
                y0 = top + k * length / 8
                d.line(
                    [(lx + off, y0), (lx + off, y0 + length / 4)],
                    fill=rgba(c, int(rng.randint(40, 90) * strength * (1 - k / 7))),
                    width=rng.randint(3, 7),
                )

    overlay(img, reflections, blur=4)
    # a car leaving, two red tail lights and their smear on the wet road
    overlay(
        img,
        lambda d: (
            d.rounded_rectangle((440, 470, 600, 530), 18, fill=(18, 16, 24, 255)),
            d.rounded_rectangle((462, 438, 578, 480), 16, fill=(24, 22, 30, 255)),
            d.rectangle((470, 446, 570, 470), fill=(50, 46, 60, 255)),
            d.line([(448, 472), (592, 472)], fill=(110, 96, 110, 255), width=2),
        ),
        blur=0.8,
    )
    for tx in (454, 586):
        glow(img, tx, 494, 70, (255, 40, 40), 210)
        overlay(img, lambda d, tx=tx: d.rectangle((tx - 9, 488, tx + 9, 500), fill=(255, 120, 100, 255)))
        overlay(
            img,
            lambda d, tx=tx: d.line(
                [(tx, 540), (tx + rng.uniform(-3, 3), 600)], fill=(255, 60, 50, 110), width=12
            ),
            blur=5,
        )
    for fx, h in ((250, 1.0), (690, 0.9)):
        overlay(
            img,
            lambda d, fx=fx, h=h: (
                d.ellipse((fx - 7 * h, 424 - 52 * h, fx + 7 * h, 424 - 38 * h), fill=(8, 8, 12, 255)),
                d.rounded_rectangle((fx - 11 * h, 424 - 40 * h, fx + 11 * h, 424), 6, fill=(8, 8, 12, 255)),
            ),
        )

    def rain(d: ImageDraw.ImageDraw) -> None:
        for _ in range(600):
            rx, ry = rng.uniform(0, W), rng.uniform(0, H)
            d.line([(rx, ry), (rx - 3, ry + 14)], fill=(180, 190, 220, 46), width=1)

    overlay(img, rain)
    img = brushwork(
        img,
        rng,
        12000,
        9,
        3,
        lambda x, y: math.pi / 2 if y > street else rng.choice((0.0, math.pi / 2)),
        spread=8,
    )
    return finish(img, rng, vignette=0.4)


def cloud(
    img: Image.Image,
    rng: random.Random,
    cx: float,
    cy: float,
    width: float,
    height: float,
    light: Colour,
    shade: Colour,
) -> None:
    """A cumulus: many puffs with a flat base, shaded underneath and lit from the upper left."""
    puffs = []
    for _ in range(26):
        x = cx + rng.gauss(0, width / 4)
        r = height * rng.uniform(0.2, 0.45) * max(0.35, 1 - abs(x - cx) / width)
        y = min(cy - rng.uniform(0, height * 0.6) * (1 - abs(x - cx) / width), cy + height * 0.25 - r)
        puffs.append((x, y, r))
    overlay(
        img,
        lambda d: [
            d.ellipse((x - r, y - r * 0.8, x + r, y + r * 1.1), fill=rgba(shade, 230)) for x, y, r in puffs
        ],
        blur=6,
    )
    overlay(
        img,
        lambda d: [
            d.ellipse((x - r * 1.05, y - r * 1.3, x + r * 0.9, y + r * 0.4), fill=rgba(light, 225))
            for x, y, r in puffs
        ],
        blur=5,
    )


def midpoint_ridge(
    rng: random.Random, points: list[tuple[float, float]], rough: float, levels: int
) -> list[tuple[float, float]]:
    """Refine a coarse skyline by repeatedly displacing midpoints: a natural, craggy ridge."""
    for _ in range(levels):
        refined = [points[0]]
        for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
            refined.append(((x0 + x1) / 2, (y0 + y1) / 2 + rng.uniform(-rough, rough)))
            refined.append((x1, y1))
        points = refined
        rough *= 0.55
    return points


def mountain_range(
    img: Image.Image,
    rng: random.Random,
    peaks: int,
    base: float,
    height: tuple[float, float],
    floor: int,
    colour: Colour,
    snow_level: float,
) -> None:
    control = [(-20.0, base + rng.uniform(0, 40))]
    for i in range(peaks):
        x = (i + rng.uniform(0.2, 0.8)) * (W + 40) / peaks - 20
        control.append((x, base - rng.uniform(*height)))
        control.append((x + rng.uniform(50, 110), base + rng.uniform(-20, 40)))
    control.append((W + 20.0, base + rng.uniform(0, 40)))
    ridge_points = midpoint_ridge(rng, control, 26, 5)
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).polygon(ridge_points + [(W + 20, floor), (-20, floor)], fill=255)
    layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    vertical_gradient_box(
        layer,
        int(base - height[1] - 20),
        floor,
        mix(colour, (255, 255, 255), 0.15),
        mix(colour, (30, 40, 50), 0.25),
    )
    snow = [(x, max(y, snow_level + rng.uniform(-18, 18))) for x, y in ridge_points]
    d.polygon(ridge_points + snow[::-1], fill=(240, 244, 250, 255))
    # the faces turned away from the light (on the right of each summit) sit in shadow
    for i in range(1, len(control) - 1, 2):
        (px, py), (sx, sy) = control[i], control[i + 1]
        d.polygon(
            [(px, py - 4), (sx, sy), (sx + 30, floor), (px + 20, floor)],
            fill=rgba(mix(colour, (20, 26, 60), 0.5), 150),
        )
        d.polygon(
            [(px, py - 4), (px + 3, floor), (px - 14, floor)], fill=rgba(mix(colour, (20, 26, 60), 0.4), 70)
        )
    for _ in range(120):
        x = rng.uniform(0, W)
        y = rng.uniform(base - height[1], floor)
        d.line(
            [(x, y), (x + rng.uniform(-20, 20), y + rng.uniform(10, 40))],
            fill=rgba(mix(colour, (20, 26, 60), 0.4), 60),
            width=2,
        )
    layer = layer.filter(ImageFilter.GaussianBlur(1.0))
    layer.putalpha(ImageChops.multiply(layer.getchannel("A"), mask.filter(ImageFilter.GaussianBlur(0.8))))
    img.alpha_composite(layer)


def mountain_lake(rng: random.Random) -> Image.Image:
    shore = 372
    img = canvas()
    vertical_gradient(img, 0, shore, [(0, (84, 138, 206)), (0.7, (192, 212, 228)), (1, (226, 226, 218))])
    for _ in range(3):
        cloud(
            img,
            rng,
            rng.uniform(0, W),
            rng.uniform(40, 110),
            rng.uniform(90, 150),
            rng.uniform(40, 60),
            (250, 250, 250),
            (176, 188, 206),
        )
    mountain_range(img, rng, 4, 270, (90, 170), shore, (150, 166, 196), 190)
    overlay(img, lambda d: d.rectangle((0, 230, W, shore), fill=(200, 214, 226, 60)), blur=20)
    mountain_range(img, rng, 3, 330, (110, 170), shore, (92, 100, 120), 240)
    overlay(img, lambda d: d.rectangle((0, 310, W, shore), fill=(200, 214, 226, 40)), blur=16)

    def pines(d: ImageDraw.ImageDraw) -> None:
        for _ in range(320):
            x = rng.uniform(-10, W + 10)
            h = rng.uniform(18, 56) * (1.7 if x < 160 or x > 660 else 1)
            bottom = shore + rng.uniform(-2, 6)
            c = jitter(rng, (24, 52, 38), 10)
            for k in range(4):
                tier = bottom - h * k / 4
                d.polygon(
                    [
                        (x, tier - h * 0.45),
                        (x - h * 0.22 * (1 - k / 5), tier),
                        (x + h * 0.22 * (1 - k / 5), tier),
                    ],
                    fill=rgba(c, 255),
                )

    overlay(img, pines, blur=0.6)
    # the lake holds a darker, rippled mirror image of everything above the shore
    above = img.crop((0, shore - (H - shore), W, shore)).transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    mirror = above.copy()
    for y in range(above.height):
        shift = int(math.sin(y / 3.0) * (1 + y / 40))
        mirror.paste(above.crop((0, y, W, y + 1)), (shift, y))
    mirror = Image.blend(mirror, Image.new("RGBA", mirror.size, (20, 50, 70, 255)), 0.35)
    img.paste(mirror, (0, shore))

    def ripples(d: ImageDraw.ImageDraw) -> None:
        for _ in range(400):
            y = rng.uniform(shore + 4, H)
            x = rng.uniform(0, W)
            d.line([(x, y), (x + rng.uniform(10, 50), y)], fill=(230, 240, 250, rng.randint(30, 90)), width=1)
        d.line([(0, shore + 1), (W, shore + 1)], fill=(220, 230, 236, 120), width=2)

    overlay(img, ripples, blur=0.6)

    def rocks(d: ImageDraw.ImageDraw) -> None:
        for _ in range(7):
            rx, ry = rng.uniform(-20, 200), rng.uniform(540, 630)
            c = jitter(rng, (96, 90, 82), 14)
            rw, rh = rng.uniform(40, 80), rng.uniform(20, 40)
            d.polygon(blob(rng, rx, ry, rw, rh, 0.25, 12), fill=rgba(c, 255))
            d.polygon(
                blob(rng, rx - rw * 0.2, ry - rh * 0.35, rw * 0.6, rh * 0.45, 0.25, 10),
                fill=rgba(mix(c, (226, 220, 206), 0.3), 255),
            )

    overlay(img, rocks, blur=0.8)
    img = brushwork(
        img, rng, 15000, 14, 3, lambda x, y: 0.0 if y > shore else rng.uniform(0.6, 2.5), spread=8
    )
    return finish(img, rng, grain=0.3, vignette=0.25)


def figure_on_bench(rng: random.Random) -> Image.Image:
    ground = 380
    img = canvas()
    vertical_gradient(img, 0, ground, [(0, (150, 152, 160)), (1, (206, 198, 184))])
    vertical_gradient(img, ground, H, [(0, (150, 140, 110)), (1, (96, 86, 66))])
    overlay(
        img, lambda d: d.polygon([(0, 470), (W, 430), (W, 520), (0, 570)], fill=(168, 160, 146, 255)), blur=2
    )

    def tree(
        d: ImageDraw.ImageDraw, x: float, y: float, a: float, length: float, width: float, depth: int
    ) -> None:
        x2, y2 = x + math.cos(a) * length, y + math.sin(a) * length
        d.line([(x, y), (x2, y2)], fill=(44, 36, 34, 255), width=max(1, int(width)))
        if depth:
            for _ in range(2 if depth < 6 else 3):
                tree(
                    d,
                    x2,
                    y2,
                    a + rng.uniform(-0.6, 0.6),
                    length * rng.uniform(0.62, 0.8),
                    width * 0.66,
                    depth - 1,
                )

    for tx, scale in ((110, 1.0), (690, 0.85), (420, 0.5), (560, 0.45)):
        fade = 1.0 if scale > 0.6 else 0.45
        overlay(
            img,
            lambda d, tx=tx, scale=scale: tree(
                d, tx, ground + 20 * scale, -math.pi / 2 + rng.uniform(-0.1, 0.1), 120 * scale, 22 * scale, 7
            ),
            blur=0.8 if fade == 1 else 2,
        )
    overlay(img, lambda d: d.rectangle((0, 0, W, ground), fill=(210, 206, 200, 50)), blur=30)
    overlay(
        img,
        lambda d: (
            d.line([(600, 480), (600, 250)], fill=(30, 30, 34, 255), width=6),
            d.ellipse((588, 236, 612, 262), fill=(240, 226, 170, 230)),
        ),
    )
    glow(img, 600, 249, 60, (250, 220, 150), 120)
    bx, by = 280, 430

    def bench(d: ImageDraw.ImageDraw) -> None:
        for k in range(3):
            d.line([(bx, by - 70 + k * 16), (bx + 260, by - 70 + k * 16)], fill=(70, 44, 28, 255), width=8)
        d.line([(bx - 6, by), (bx + 266, by)], fill=(80, 50, 30, 255), width=12)
        for lx in (bx + 10, bx + 250):
            d.line([(lx, by - 74), (lx, by + 50)], fill=(26, 24, 24, 255), width=6)
        d.ellipse((bx - 30, by + 36, bx + 290, by + 60), fill=(60, 54, 44, 90))

    overlay(img, bench, blur=0.6)
    fx = bx + 150

    def figure(d: ImageDraw.ImageDraw) -> None:
        coat = (40, 44, 58, 255)
        d.polygon(
            [(fx - 34, by - 4), (fx + 30, by - 4), (fx + 22, by - 86), (fx - 6, by - 98), (fx - 30, by - 80)],
            fill=coat,
        )
        d.polygon(
            [(fx + 20, by - 10), (fx + 70, by - 6), (fx + 72, by + 8), (fx + 14, by + 8)],
            fill=(34, 36, 46, 255),
        )
        d.polygon(
            [(fx + 58, by - 4), (fx + 74, by - 4), (fx + 72, by + 48), (fx + 60, by + 48)],
            fill=(34, 36, 46, 255),
        )
        d.ellipse((fx + 54, by + 42, fx + 84, by + 54), fill=(20, 18, 18, 255))
        d.polygon(
            [(fx - 8, by - 96), (fx + 18, by - 90), (fx + 14, by - 78), (fx - 10, by - 84)],
            fill=(170, 40, 40, 255),
        )
        d.ellipse((fx - 8, by - 128, fx + 22, by - 96), fill=(200, 160, 130, 255))
        d.chord((fx - 10, by - 132, fx + 24, by - 104), 180, 360, fill=(60, 40, 30, 255))
        d.line([(fx + 16, by - 70), (fx + 40, by - 26)], fill=coat, width=12)

    overlay(img, figure, blur=0.6)

    def leaves(d: ImageDraw.ImageDraw) -> None:
        for _ in range(900):
            y = rng.uniform(ground + 10, H)
            x = rng.uniform(0, W)
            r = 1.5 + 5 * (y - ground) / (H - ground)
            c = rng.choice([(196, 110, 40), (170, 60, 30), (214, 170, 60), (120, 70, 30)])
            d.ellipse((x - r, y - r * 0.5, x + r, y + r * 0.5), fill=rgba(jitter(rng, c, 16), 220))
        for _ in range(14):
            x, y = rng.uniform(0, W), rng.uniform(60, ground)
            d.ellipse((x - 4, y - 2, x + 4, y + 2), fill=(200, 120, 40, 220))

    overlay(img, leaves, blur=0.5)
    img = brushwork(img, rng, 14000, 14, 4, dabs(rng), spread=8)
    return finish(img, rng, vignette=0.45)


def crowded_market(rng: random.Random) -> Image.Image:
    img = canvas()
    vertical_gradient(img, 0, 200, [(0, (240, 170, 90)), (1, (255, 222, 160))])

    def facades(d: ImageDraw.ImageDraw) -> None:
        x = -10.0
        while x < W:
            w = rng.uniform(90, 160)
            top = rng.uniform(40, 120)
            c = jitter(rng, rng.choice([(206, 120, 70), (224, 180, 100), (180, 90, 70), (230, 200, 150)]), 12)
            d.rectangle((x, top, x + w, 330), fill=rgba(c, 255))
            d.polygon(
                [(x - 6, top), (x + w / 2, top - 30), (x + w + 6, top)],
                fill=rgba(mix(c, (90, 40, 30), 0.5), 255),
            )
            for wy in range(int(top + 20), 250, 46):
                for wx in range(int(x + 14), int(x + w - 24), 34):
                    d.rectangle((wx, wy, wx + 18, wy + 28), fill=(60, 40, 40, 255))
                    d.line([(wx - 2, wy + 30), (wx + 20, wy + 30)], fill=(250, 240, 220, 255), width=3)
            x += w

    overlay(img, facades, blur=0.8)
    vertical_gradient_box(img, 330, H, (170, 140, 110), (110, 86, 64))
    stripes = [
        ((220, 40, 40), (250, 240, 230)),
        ((40, 110, 200), (250, 240, 230)),
        ((250, 190, 30), (230, 90, 30)),
        ((30, 140, 90), (240, 230, 200)),
        ((200, 60, 160), (255, 220, 120)),
    ]
    for i, x in enumerate(range(10, W, 160)):
        a, b = stripes[i % len(stripes)]

        def stall(d: ImageDraw.ImageDraw, x=x, a=a, b=b) -> None:
            d.rectangle((x + 6, 250, x + 140, 360), fill=(70, 46, 30, 255))
            for k in range(7):
                x0 = x + k * 146 / 7
                d.polygon(
                    [(x0 + 10, 220), (x0 + 10 + 146 / 7, 220), (x0 + 146 / 7 - 4, 268), (x0 - 4, 268)],
                    fill=rgba(a if k % 2 else b, 255),
                )
            d.line([(x - 4, 268), (x + 146, 268)], fill=rgba(mix(a, (0, 0, 0), 0.4), 255), width=4)
            d.rectangle((x, 330, x + 150, 372), fill=(120, 80, 44, 255))
            fruit = rng.choice(
                [(250, 140, 20), (220, 30, 40), (120, 180, 40), (250, 220, 60), (110, 40, 110)]
            )
            for _ in range(90):
                fx, fy = rng.gauss(x + 75, 36), 326 - abs(rng.gauss(0, 12))
                r = rng.uniform(4, 7)
                d.ellipse((fx - r, fy - r, fx + r, fy + r), fill=rgba(jitter(rng, fruit, 25), 255))

        overlay(img, stall, blur=0.6)
    people = []
    for _ in range(70):
        y = rng.uniform(360, 640)
        people.append((y, rng.uniform(-20, W + 20)))

    def crowd(d: ImageDraw.ImageDraw) -> None:
        for y, x in sorted(people):
            s = 0.5 + (y - 360) / 280 * 1.1
            body = jitter(
                rng,
                rng.choice(
                    [
                        (200, 40, 50),
                        (40, 80, 170),
                        (240, 200, 60),
                        (60, 150, 90),
                        (250, 250, 240),
                        (150, 60, 150),
                        (240, 120, 40),
                        (40, 40, 50),
                    ]
                ),
                20,
            )
            skin = rng.choice([(224, 180, 140), (170, 120, 80), (110, 70, 50), (240, 200, 170)])
            d.rounded_rectangle(
                (x - 22 * s, y - 80 * s, x + 22 * s, y + 40 * s), int(14 * s), fill=rgba(body, 255)
            )
            d.ellipse((x - 12 * s, y - 108 * s, x + 12 * s, y - 80 * s), fill=rgba(skin, 255))
            if rng.random() < 0.35:
                hat = rng.choice([(240, 230, 200), (40, 30, 30), (200, 40, 40)])
                d.chord((x - 15 * s, y - 114 * s, x + 15 * s, y - 90 * s), 180, 360, fill=rgba(hat, 255))
            if rng.random() < 0.3:
                d.ellipse(
                    (x + 14 * s, y - 30 * s, x + 34 * s, y - 6 * s),
                    fill=rgba(jitter(rng, (180, 140, 80), 20), 255),
                )

    overlay(img, crowd, blur=0.6)
    img = brushwork(img, rng, 16000, 10, 4, dabs(rng), spread=16)
    return finish(img, rng, grain=0.3, vignette=0.3)


def portrait_of_shapes(rng: random.Random) -> Image.Image:
    img = canvas()
    vertical_gradient(img, 0, H, [(0, (40, 96, 104)), (1, (24, 60, 66))])
    overlay(img, lambda d: d.polygon([(420, 0), (W, 0), (W, H), (520, H)], fill=(196, 150, 70, 255)))
    overlay(
        img, lambda d: d.polygon([(0, 200), (260, 120), (300, H), (0, H)], fill=(70, 120, 110, 200)), blur=1
    )
    overlay(img, lambda d: d.polygon([(600, 80), (780, 200), (700, 420)], fill=(220, 184, 100, 200)), blur=1)
    cx = 400

    def sitter(d: ImageDraw.ImageDraw) -> None:
        d.polygon(
            [(150, H), (230, 470), (340, 430), (460, 430), (570, 470), (650, H)], fill=(34, 40, 84, 255)
        )
        d.polygon([(340, 430), (400, 520), (460, 430)], fill=(230, 220, 200, 255))
        d.polygon([(370, 330), (430, 330), (440, 440), (360, 440)], fill=(214, 170, 130, 255))
        d.polygon([(400, 330), (430, 330), (440, 440), (400, 440)], fill=(150, 146, 104, 255))
        d.polygon(blob(rng, cx, 190, 150, 170, 0.12, 24), fill=(50, 30, 26, 255))
        d.ellipse((cx - 100, 120, cx + 100, 380), fill=(228, 184, 146, 255))
        d.chord((cx - 100, 120, cx + 100, 380), 270, 90, fill=(156, 154, 108, 255))
        d.polygon(
            [(cx - 110, 150), (cx + 110, 150), (cx + 80, 100), (cx, 86), (cx - 80, 100)],
            fill=(50, 30, 26, 255),
        )
        d.polygon([(cx - 100, 150), (cx - 50, 150), (cx - 100, 196)], fill=(50, 30, 26, 255))
        # eyes at two heights, as if seen from two sides at once
        for ex, ey, w in ((cx - 48, 218, 46), (cx + 44, 204, 40)):
            d.ellipse((ex - w / 2, ey - 10, ex + w / 2, ey + 10), fill=(236, 232, 214, 255))
            d.ellipse((ex - 9, ey - 9, ex + 9, ey + 9), fill=(40, 80, 70, 255))
            d.ellipse((ex - 4, ey - 4, ex + 4, ey + 4), fill=(10, 10, 10, 255))
            d.line(
                [(ex - w / 2 - 4, ey - 24), (ex + w / 2, ey - 28 + (6 if ex > cx else 0))],
                fill=(40, 26, 20, 255),
                width=6,
            )
        d.polygon([(cx - 2, 214), (cx + 22, 296), (cx - 14, 300)], fill=(196, 150, 116, 255))
        d.line([(cx - 2, 214), (cx + 22, 296)], fill=(120, 120, 80, 255), width=4)
        d.polygon([(cx - 30, 326), (cx + 30, 322), (cx + 22, 334), (cx - 24, 336)], fill=(170, 50, 50, 255))
        d.line([(cx - 30, 327), (cx + 30, 323)], fill=(90, 26, 26, 255), width=3)
        d.ellipse((cx + 90, 240, cx + 104, 262), fill=(214, 180, 60, 255))
        for k in range(9):
            a = math.pi * (0.15 + 0.7 * k / 8)
            d.ellipse(
                (
                    cx + math.cos(a) * 60 - 6,
                    420 + math.sin(a) * 40 - 6,
                    cx + math.cos(a) * 60 + 6,
                    420 + math.sin(a) * 40 + 6,
                ),
                fill=(176, 52, 44, 255),
            )

    overlay(img, sitter, blur=1.0)
    overlay(img, lambda d: d.ellipse((cx - 88, 250, cx - 40, 292), fill=(226, 130, 120, 90)), blur=6)
    img = brushwork(img, rng, 14000, 14, 4, lambda x, y: math.atan2(y - 240, x - cx) + math.pi / 2, spread=10)
    return finish(img, rng, vignette=0.35)


def red_and_black(rng: random.Random) -> Image.Image:
    img = canvas()
    vertical_gradient(img, 0, H, [(0, (238, 230, 212)), (1, (222, 210, 186))])
    red, black = (196, 32, 30), (22, 20, 22)

    def rotated(x: float, y: float, w: float, h: float, a: float) -> list[tuple[float, float]]:
        c, s = math.cos(a), math.sin(a)
        return [
            (x + px * c - py * s, y + px * s + py * c)
            for px, py in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
        ]

    def shapes(d: ImageDraw.ImageDraw) -> None:
        d.ellipse((470, 110, 730, 370), fill=rgba(black, 255))
        d.polygon([(90, 470), (600, 240), (120, 540)], fill=rgba(red, 255))
        d.polygon(rotated(250, 180, 210, 150, -0.32), fill=rgba(red, 255))
        d.polygon(rotated(400, 430, 520, 34, -0.42), fill=rgba(black, 255))
        d.polygon(rotated(560, 500, 220, 18, 0.35), fill=rgba(black, 255))
        d.polygon(rotated(150, 90, 120, 12, 0.2), fill=rgba(black, 255))
        d.polygon(rotated(680, 470, 60, 60, 0.5), fill=rgba(red, 255))
        d.polygon(rotated(320, 320, 40, 40, 0.1), fill=rgba(black, 255))
        d.polygon(rotated(600, 240, 90, 90, 0.25), fill=(236, 228, 208, 255))
        for k in range(4):
            d.line([(60 + k * 18, 300), (340 + k * 18, 40)], fill=rgba(black, 255), width=2)
        d.polygon(rotated(700, 90, 70, 24, -0.7), fill=(120, 116, 110, 255))
        for _ in range(9):
            x, y, s = rng.uniform(40, 760), rng.uniform(40, 560), rng.uniform(6, 18)
            d.polygon(rotated(x, y, s, s, rng.uniform(0, 1.5)), fill=rgba(rng.choice((red, black)), 255))

    overlay(img, shapes, blur=0.9)
    img = brushwork(img, rng, 9000, 12, 3, lambda x, y: -0.42, spread=6)
    return finish(img, rng, grain=0.45, vignette=0.2)


# ------------------------------------------------------------------------ manifest


@dataclass(frozen=True)
class Artwork:
    file: str
    paint: Callable[[random.Random], Image.Image]
    title: str
    genre: str
    style: str
    positive_emotion: str
    positive_text: str
    negative_emotion: str
    negative_text: str


ARTWORKS = [
    Artwork(
        file="01-sunset-over-water.jpg",
        paint=sunset_over_water,
        title="Evening Tide",
        genre="marina",
        style="impressionism",
        positive_emotion="contentment",
        positive_text=(
            "The warm orange light spilling across the calm water makes the whole evening feel "
            "unhurried and safe."
        ),
        negative_emotion="sadness",
        negative_text=(
            "The sun sinking behind the sea reminds me that a good day is already over and cannot be kept."
        ),
    ),
    Artwork(
        file="02-stormy-sea.jpg",
        paint=stormy_sea,
        title="Small Sail in Heavy Weather",
        genre="marina",
        style="romanticism",
        positive_emotion="awe",
        positive_text=(
            "The heaving waves and the lightning show how enormous the sea is compared to "
            "anything people build."
        ),
        negative_emotion="fear",
        negative_text=(
            "That tiny boat tipped on the swell looks like it could be swallowed by the next wave"
            " at any moment."
        ),
    ),
    Artwork(
        file="03-dark-forest-path.jpg",
        paint=dark_forest_path,
        title="The Path Through the Pines",
        genre="landscape",
        style="expressionism",
        positive_emotion="awe",
        positive_text=(
            "The pale glow at the far end of the path pulls me forward as if something wonderful waits there."
        ),
        negative_emotion="fear",
        negative_text=(
            "The black trunks closing in on both sides make me feel watched and unable to turn back."
        ),
    ),
    Artwork(
        file="04-bright-flower-field.jpg",
        paint=bright_flower_field,
        title="Meadow in June",
        genre="landscape",
        style="impressionism",
        positive_emotion="excitement",
        positive_text="So many bright colours packed together make me want to run straight into the field.",
        negative_emotion="sadness",
        negative_text=(
            "Meadows like this one are disappearing, and the picture feels like a memory of something lost."
        ),
    ),
    Artwork(
        file="05-circles.jpg",
        paint=circles_composition,
        title="Several Moons",
        genre="abstract",
        style="abstract_art",
        positive_emotion="amusement",
        positive_text="The circles bump into each other like balloons at a party, which makes me smile.",
        negative_emotion="disgust",
        negative_text=(
            "Where the colours overlap they turn into muddy smears that look like stains on a dirty window."
        ),
    ),
    Artwork(
        file="06-still-life-with-vase.jpg",
        paint=still_life_with_vase,
        title="Blue Vase with Fruit",
        genre="still_life",
        style="post_impressionism",
        positive_emotion="contentment",
        positive_text=(
            "The fresh flowers and ripe fruit on a sunny table feel like a peaceful afternoon at home."
        ),
        negative_emotion="disgust",
        negative_text=(
            "The dropped petals and the overripe fruit suggest everything on that table is starting to rot."
        ),
    ),
    Artwork(
        file="07-city-street-at-night.jpg",
        paint=city_street_at_night,
        title="Wet Night, Main Street",
        genre="cityscape",
        style="expressionism",
        positive_emotion="excitement",
        positive_text=(
            "The glowing signs and lit windows make the city feel alive, as if the night is just beginning."
        ),
        negative_emotion="fear",
        negative_text=(
            "An almost empty street in the rain after dark, with only two shadowy figures, feels unsafe."
        ),
    ),
    Artwork(
        file="08-mountain-lake.jpg",
        paint=mountain_lake,
        title="Still Water Below the Peaks",
        genre="landscape",
        style="realism",
        positive_emotion="awe",
        positive_text="The snowy peaks mirrored so perfectly in the lake make me feel small in a good way.",
        negative_emotion="sadness",
        negative_text="There is nobody in this vast, cold valley, and the silence of it feels lonely.",
    ),
    Artwork(
        file="09-figure-on-bench.jpg",
        paint=figure_on_bench,
        title="Afternoon in the Park",
        genre="genre_painting",
        style="realism",
        positive_emotion="contentment",
        positive_text="Someone taking a quiet moment alone among the autumn leaves looks restful to me.",
        negative_emotion="sadness",
        negative_text=(
            "The hunched figure on the bench under the bare trees seems to be waiting for someone"
            " who will not come."
        ),
    ),
    Artwork(
        file="10-crowded-market.jpg",
        paint=crowded_market,
        title="Market Day",
        genre="genre_painting",
        style="fauvism",
        positive_emotion="excitement",
        positive_text=(
            "The striped awnings, piles of fruit and busy crowd make me feel the buzz of a market morning."
        ),
        negative_emotion="anger",
        negative_text=(
            "Being squeezed into a crowd like that, with people pushing from every side, would "
            "make me lose my temper."
        ),
    ),
    Artwork(
        file="11-portrait-of-shapes.jpg",
        paint=portrait_of_shapes,
        title="Woman with Uneven Eyes",
        genre="portrait",
        style="cubism",
        positive_emotion="amusement",
        positive_text="Her eyes sitting at two different heights give the face a funny, puzzled look.",
        negative_emotion="disgust",
        negative_text=(
            "The greenish shadow over half of her face makes her look ill and uncomfortable to look at."
        ),
    ),
    Artwork(
        file="12-red-and-black.jpg",
        paint=red_and_black,
        title="Red Wedge",
        genre="abstract",
        style="suprematism",
        positive_emotion="excitement",
        positive_text=(
            "The sharp red wedge shooting across the canvas has a thrilling sense of speed and energy."
        ),
        negative_emotion="anger",
        negative_text=(
            "The harsh red stabbing into the black circle feels aggressive, like a shout or a fight."
        ),
    ),
]


def main() -> None:
    rows = []
    for art in ARTWORKS:
        img = art.paint(random.Random(art.file))
        img.save(HERE / art.file, format="JPEG", quality=82, optimize=True)
        rows.append(
            {
                "image": art.file,
                "title": art.title,
                "genre": art.genre,
                "style": art.style,
                "source": SOURCE,
                "positive_emotion": art.positive_emotion,
                "positive_text": art.positive_text,
                "negative_emotion": art.negative_emotion,
                "negative_text": art.negative_text,
            }
        )
        print(f"{art.file}: {(HERE / art.file).stat().st_size // 1024} KiB")
    (HERE / "manifest.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))


if __name__ == "__main__":
    main()
