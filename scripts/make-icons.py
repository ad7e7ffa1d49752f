#!/usr/bin/env python3
"""Draws Deskmate's icon (a speech bubble with three dots on a blue rounded square) as
RGBA PNGs in icons/, with the standard library only. Run it again to regenerate them."""
import math
import os
import struct
import zlib

SIZES = {"32x32.png": 32, "128x128.png": 128, "128x128@2x.png": 256, "icon.png": 512}


def coverage(dist):
    """Anti-aliased coverage from a signed distance in pixels (negative = inside)."""
    return max(0.0, min(1.0, 0.5 - dist))


def rounded_rect(x, y, cx, cy, hw, hh, r):
    dx, dy = abs(x - cx) - (hw - r), abs(y - cy) - (hh - r)
    outside = math.hypot(max(dx, 0.0), max(dy, 0.0))
    return outside + min(max(dx, dy), 0.0) - r


def pixel(x, y, s):
    u, v = x / s, y / s
    bg = coverage(rounded_rect(u, v, 0.5, 0.5, 0.47, 0.47, 0.2) * s)
    bubble = min(
        rounded_rect(u, v, 0.5, 0.45, 0.3, 0.22, 0.12),
        # the tail: a small triangle below the bubble's left part
        max(v - 0.8, 0.62 - v, (u - 0.3) - (0.8 - v) * 0.6, 0.3 - u) if 0.3 <= u <= 0.55 else 1.0,
    )
    white = coverage(bubble * s)
    dot = min(math.hypot(u - cx, v - 0.45) - 0.045 for cx in (0.36, 0.5, 0.64))
    blue_dot = coverage(dot * s)
    top = (47, 111, 222)
    bottom = (30, 76, 170)
    base = tuple(int(top[i] + (bottom[i] - top[i]) * v) for i in range(3))
    color = [base[i] * (1 - white) + 255 * white for i in range(3)]
    color = [color[i] * (1 - blue_dot) + base[i] * blue_dot for i in range(3)]
    alpha = bg
    return bytes([int(c) for c in color] + [int(255 * alpha)])


def png(size):
    rows = bytearray()
    ss = 3  # supersampling per axis
    for y in range(size):
        rows.append(0)
        for x in range(size):
            acc = [0, 0, 0, 0]
            for j in range(ss):
                for i in range(ss):
                    p = pixel(x + (i + 0.5) / ss, y + (j + 0.5) / ss, size)
                    for k in range(4):
                        acc[k] += p[k]
            a = acc[3]
            rgb = [int(acc[k] / ss / ss) for k in range(3)]
            rows.extend(bytes(rgb + [int(a / ss / ss)]))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "icons")
    os.makedirs(out, exist_ok=True)
    for name, size in SIZES.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(png(size))
        print(name, size)
