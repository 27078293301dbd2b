#!/usr/bin/env python3
"""Draws the Crafter toolkit's own textures: 16x16 PNG files with the file
names of Crafter's assets, so either folder can be used.  Standard library
only.  Run from anywhere: python3 data/textures/generate.py"""

import os
import random
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
N = 16


def write_png(name, pixels, alpha):
    """pixels: 16 rows of 16 (r, g, b, a) tuples."""
    rows = b""
    for row in pixels:
        rows += b"\0" + b"".join(
            bytes(p if alpha else p[:3]) for p in row)
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))
    header = struct.pack(">IIBBBBB", N, N, 8, 6 if alpha else 2, 0, 0, 0)
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
            chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))
    with open(os.path.join(HERE, name + ".png"), "wb") as f:
        f.write(data)


def hexcolour(text, a=255):
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16), a)


CLEAR = (0, 0, 0, 0)


def canvas(fill=CLEAR):
    return [[fill for _ in range(N)] for _ in range(N)]


def speckle(base, colours, density, seed):
    rng = random.Random(seed)
    img = canvas(hexcolour(base))
    for y in range(N):
        for x in range(N):
            if rng.random() < density:
                img[y][x] = hexcolour(rng.choice(colours))
    return img


def draw_map(img, art, palette, dx=0, dy=0):
    """Paints a picture given as rows of characters; '.' is left alone."""
    for y, row in enumerate(art):
        for x, ch in enumerate(row):
            if ch != "." and 0 <= y + dy < N and 0 <= x + dx < N:
                img[y + dy][x + dx] = palette[ch]
    return img


def blob(img, cx, cy, r, colour, rng=None):
    for y in range(N):
        for x in range(N):
            if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
                img[y][x] = colour
    return img


def mirror(img):
    return [list(reversed(row)) for row in img]


def rotate(img):  # clockwise
    return [[img[N - 1 - x][y] for x in range(N)] for y in range(N)]


# ---- terrain ----

def grass():
    return speckle("4c9a3a", ["3f8530", "5bb047", "6cc255"], 0.35, 1)


def sand():
    return speckle("e3cf8c", ["d4bd74", "efe0a8", "c9b068"], 0.3, 2)


def water():
    img = canvas(hexcolour("2f6fd1"))
    rng = random.Random(3)
    for y in range(1, N, 4):
        x0 = rng.randrange(N)
        for k in range(5):
            img[y][(x0 + k) % N] = hexcolour("6fa8f0")
            img[(y + 2) % N][(x0 + 8 + k) % N] = hexcolour("255db5")
    return img


def stone():
    img = speckle("8a8a8a", ["7a7a7a", "9a9a9a"], 0.25, 4)
    for x in range(N):
        img[5][x] = hexcolour("666666")
        img[11][x] = hexcolour("666666")
    for y in list(range(0, 5)) + list(range(12, 16)):
        img[y][6] = hexcolour("666666")
    for y in range(6, 11):
        img[y][12] = hexcolour("666666")
    return img


def path():
    img = speckle("6e6659", ["625a4e", "7a7264"], 0.3, 5)
    for i in range(N):
        img[7][i] = hexcolour("514a40")
        img[i][7] = hexcolour("514a40")
    return img


def lava():
    img = speckle("d8420f", ["c0300a", "e85a18"], 0.3, 6)
    rng = random.Random(7)
    for _ in range(5):
        blob(img, rng.randrange(N), rng.randrange(N), 1.6, hexcolour("ffb020"))
    return img


def ore(spots, seed):
    img = stone()
    rng = random.Random(seed)
    for cx, cy in [(3, 3), (11, 4), (5, 10), (12, 12), (8, 7)]:
        colour = rng.choice(spots)
        blob(img, cx + rng.choice([-1, 0]), cy, 1.3, hexcolour(colour))
    return img


def coal():
    return ore(["1c1c1c", "2b2b2b"], 8)


def iron():
    return ore(["d9a066", "c48450", "e8b888"], 9)


def diamond():
    img = stone()
    gem = ["...w...", "..wcc..", ".wccdc.", "wccccdd", ".dccdd.", "..dcd..", "...d..."]
    pal = {"w": hexcolour("f0ffff"), "c": hexcolour("66e8e0"), "d": hexcolour("2aa8b0")}
    draw_map(img, gem, pal, 4, 4)
    return img


def tree():
    img = grass()
    draw_map(img, ["....tt....", "....tt....", "....tt...."],
             {"t": hexcolour("6b4423")}, 3, 12)
    rng = random.Random(10)
    for y in range(N):
        for x in range(N):
            if (x - 7.5) ** 2 + (y - 6) ** 2 <= 36:
                img[y][x] = hexcolour(rng.choice(["1f6b2a", "2a7d33", "185a22"]))
    return img


def table():
    img = canvas(hexcolour("9c6a3a"))
    for y in range(N):
        for x in range(N):
            if x in (0, 15) or y in (0, 15):
                img[y][x] = hexcolour("5c3a1c")
            elif y % 5 == 0:
                img[y][x] = hexcolour("7d522b")
    for x, y in [(4, 4), (11, 4), (4, 11), (11, 11)]:
        img[y][x] = hexcolour("e0c08a")
    return img


def furnace():
    img = canvas(hexcolour("7d7d7d"))
    for y in range(N):
        for x in range(N):
            if y % 4 == 3 or (x + (4 if (y // 4) % 2 else 0)) % 8 == 7:
                img[y][x] = hexcolour("5a5a5a")
    for y in range(8, 14):
        for x in range(4, 12):
            img[y][x] = hexcolour("1a1a1a")
    for x in range(5, 11):
        img[12][x] = hexcolour("ff8a1a")
        img[11][x if x % 2 else x - 1] = hexcolour("ffd040")
    return img


def leaves():
    rng = random.Random(11)
    img = canvas()
    for y in range(N):
        for x in range(N):
            if rng.random() < 0.8:
                img[y][x] = hexcolour(rng.choice(["1f6b2a", "2a7d33", "3b9142"]))
    return img


def log():
    img = canvas()
    for y in range(3, 13):
        for x in range(1, 15):
            img[y][x] = hexcolour("7a4e26" if y % 3 else "5c3818")
    blob(img, 13, 8, 3.2, hexcolour("c8955a"))
    blob(img, 13, 8, 1.5, hexcolour("9c6a3a"))
    return img


def fence():
    img = canvas()
    pal = {"b": hexcolour("8a5a2b")}
    for x in (2, 7, 12):
        draw_map(img, ["bb"] * 14, pal, x, 1)
    for y in (4, 10):
        draw_map(img, ["b" * 14], pal, 1, y)
    return img


# ---- creatures ----

HUMAN_DOWN = [
    "................",
    ".....hhhhhh.....",
    "....hhhhhhhh....",
    "....hsssssss....",
    "....sesssess....",
    "....ssssssss....",
    ".....ssmmss.....",
    "...bbbbbbbbbb...",
    "..sbbbbbbbbbbs..",
    "..sbbbbbbbbbbs..",
    "..s.bbbbbbbb.s..",
    "....pppppppp....",
    "....ppp..ppp....",
    "....ppp..ppp....",
    "....kkk..kkk....",
    "................",
]
HUMAN_UP = [row.replace("e", "s").replace("m", "s") for row in HUMAN_DOWN]
HUMAN_UP[3] = "....hhhhhhhh...."
HUMAN_UP[4] = "....hhhhhhhh...."
HUMAN_UP[5] = "....hhhhhhhh...."
HUMAN_RIGHT = [
    "................",
    ".....hhhhhh.....",
    "....hhhhhhhh....",
    "....hhhhssss....",
    "....hhhssses....",
    "....hhssssss....",
    ".....sssssm.....",
    "....bbbbbbb.....",
    "....bbbbbbbs....",
    "....bbbbbbbs....",
    "....bbbbbbb.....",
    "....ppppppp.....",
    ".....pp.ppp.....",
    ".....pp.ppp.....",
    ".....kk.kkkk....",
    "................",
]


def humanoid(art, palette):
    return draw_map(canvas(), art, palette)


PLAYER = {"h": hexcolour("5a3a1e"), "s": hexcolour("f0c090"), "e": hexcolour("1a1a40"),
          "m": hexcolour("b05050"), "b": hexcolour("2f7fd0"), "p": hexcolour("3a3a6a"),
          "k": hexcolour("3a2a1a")}
ZOMBIE = {"h": hexcolour("2f5a2a"), "s": hexcolour("6fb060"), "e": hexcolour("c02020"),
          "m": hexcolour("2a4a22"), "b": hexcolour("4a6a8a"), "p": hexcolour("3a4a5a"),
          "k": hexcolour("2a3a2a")}
SKELETON = {"h": hexcolour("e8e8e0"), "s": hexcolour("dcdcd2"), "e": hexcolour("202020"),
            "m": hexcolour("303030"), "b": hexcolour("c8c8be"), "p": hexcolour("b4b4aa"),
            "k": hexcolour("9a9a90")}


def player_sleep():
    img = canvas()
    body = ["hhhssssbbbbbbbpppkk", ]
    for y in range(7, 12):
        for x in range(1, 15):
            img[y][x] = PLAYER["b"] if x > 5 else PLAYER["s"]
    for y in range(7, 12):
        for x in range(1, 4):
            img[y][x] = PLAYER["h"]
    for y in range(12, 14):
        for x in range(0, 16):
            img[y][x] = hexcolour("c0c0d8")
    draw_map(img, ["zzz.", "..z.", ".z..", "zzz."], {"z": hexcolour("ffffff")}, 10, 1)
    del body
    return img


def skeleton():
    img = humanoid(HUMAN_DOWN, SKELETON)
    for y in range(3, 13):
        img[y][14] = hexcolour("7a4e26")
    for y in range(4, 12):
        img[y][13 if 5 <= y <= 10 else 14] = hexcolour("7a4e26")
    return img


def cow():
    art = [
        "................",
        "................",
        "..hh........hh..",
        "..hhwwwwww..hh..",
        "..wwwwbbwwwwww..",
        ".wwbbwwwwwbbwww.",
        ".wwbbwwwwwbbwwwn",
        ".wwwwwwbbwwwwwwn",
        ".wwwwwwbbwwwwww.",
        "..wwwwwwwwwwww..",
        "...pp......pp...",
        "...kk......kk...",
        "................",
        "................",
        "................",
        "................",
    ]
    pal = {"w": hexcolour("f2f2ee"), "b": hexcolour("5a3a22"), "h": hexcolour("d8c8a0"),
           "n": hexcolour("f0a0a0"), "p": hexcolour("e0e0dc"), "k": hexcolour("3a3a3a")}
    return draw_map(canvas(), art, pal, 0, 2)


def arrow_right():
    img = canvas()
    pal = {"s": hexcolour("8a5a2b"), "t": hexcolour("c0c0c0"), "f": hexcolour("e04040")}
    draw_map(img, ["f.......", "ff.......", "ssssssssssstt", "ff.......", "f......."], pal, 1, 6)
    img[5][12] = pal["t"]
    img[9][12] = pal["t"]
    return img


def plant(ripe):
    img = canvas()
    pal = {"g": hexcolour("3aa040"), "d": hexcolour("2a7a30"), "r": hexcolour("e03030"),
           "y": hexcolour("ffd040")}
    art = [
        "................",
        "................",
        "................",
        "......g..g......",
        ".....gdg.gdg....",
        "......gdgdg.....",
        "...g...gdg...g..",
        "..gdg..gdg..gdg.",
        "...gdg.gdg.gdg..",
        ".....gdgdgdg....",
        ".......gdg......",
        ".......gdg......",
        ".......ddd......",
        "................",
        "................",
        "................",
    ]
    draw_map(img, art, pal)
    if ripe:
        for x, y in [(5, 4), (10, 4), (3, 7), (13, 7), (8, 6)]:
            img[y][x] = pal["r"]
            img[y - 1][x] = pal["y"] if x == 8 else pal["r"]
    return img


def plant_young():
    img = grass()
    draw_map(img, ["..g..", ".gdg.", "..d.."], {"g": hexcolour("7fd060"), "d": hexcolour("2a7a30")}, 6, 6)
    return img


# ---- items ----

def icon(art, pal):
    return draw_map(canvas(), art, pal)


def heart():
    return icon([
        "................",
        "................",
        "...rrr....rrr...",
        "..rrrrr..rrrrr..",
        ".rrwrrrrrrrrrrr.",
        ".rwrrrrrrrrrrrr.",
        ".rrrrrrrrrrrrrr.",
        "..rrrrrrrrrrrr..",
        "...rrrrrrrrrr...",
        "....rrrrrrrr....",
        ".....rrrrrr.....",
        "......rrrr......",
        ".......rr.......",
    ], {"r": hexcolour("e02838"), "w": hexcolour("ffb0b0")})


def food():
    return icon([
        "................",
        "................",
        "........mmmm....",
        ".......mmmmmm...",
        "......mmmmmmmm..",
        "......mmmmmmmm..",
        ".....mmmmmmmmm..",
        ".....mmmmmmmm...",
        "....bmmmmmmm....",
        "...bb.mmmm......",
        "..bb............",
        ".bbb............",
        ".bb.............",
    ], {"m": hexcolour("c0602a"), "b": hexcolour("f0e8d8")})


def drink():
    return icon([
        "................",
        ".......b........",
        "......bbb.......",
        "......bbb.......",
        ".....bbbbb......",
        "....bbbbbbb.....",
        "....bwbbbbb.....",
        "...bbwbbbbbb....",
        "...bwbbbbbbb....",
        "...bbbbbbbbb....",
        "....bbbbbbb.....",
        ".....bbbbb......",
    ], {"b": hexcolour("3a80e8"), "w": hexcolour("c0e0ff")})


def energy():
    return icon([
        "................",
        ".........yyy....",
        "........yyy.....",
        ".......yyy......",
        "......yyy.......",
        ".....yyyyyyy....",
        "........yyy.....",
        ".......yyy......",
        "......yyy.......",
        ".....yy.........",
        "....y...........",
    ], {"y": hexcolour("ffd020")})


def sapling():
    return icon([
        "................",
        "................",
        ".......gg.......",
        "......gddg......",
        ".....gdggdg.....",
        "......g..g......",
        ".......dd.......",
        ".......dd.......",
        "......bbbb......",
        ".....bbbbbb.....",
    ], {"g": hexcolour("5ac050"), "d": hexcolour("2a7a30"), "b": hexcolour("7a4e26")})


def rock(colour, shine):
    return icon([
        "................",
        "................",
        "................",
        "......rrrr......",
        "....rrrrrrrr....",
        "...rrsrrrrrrr...",
        "..rrsrrrrrrrrr..",
        "..rrrrrrrrrrrr..",
        "..rrrrrrrrrrrd..",
        "...rrrrrrrrdd...",
        "....dddddddd....",
    ], {"r": hexcolour(colour), "s": hexcolour(shine), "d": hexcolour("404040")})


def ingot():
    return icon([
        "................",
        "................",
        "................",
        "................",
        "......wwwwwww...",
        ".....wiiiiiiw...",
        "....wiiiiiiiw...",
        "...wiiiiiiiwd...",
        "..wiiiiiiiwdd...",
        "..dddddddddd....",
    ], {"w": hexcolour("f0e0d0"), "i": hexcolour("d0a070"), "d": hexcolour("8a6040")})


def gem():
    img = canvas()
    draw_map(img, ["...www...", "..wccdd..", ".wcccddd.", "wccccdddd", ".ccccddd.",
                   "..cccdd..", "...cdd...", "....d...."],
             {"w": hexcolour("f0ffff"), "c": hexcolour("66e8e0"), "d": hexcolour("2aa8b0")}, 3, 4)
    return img


def tool(head, kind):
    img = canvas()
    handle = {"h": hexcolour("8a5a2b")}
    if kind == "pickaxe":
        draw_map(img, ["...........h....", "..........h.....", ".........h......",
                       "........h.......", ".......h........", "......h.........",
                       ".....h..........", "....h...........", "...h............",
                       "..h............."], handle, 0, 5)
        draw_map(img, ["..xxxxxx....", ".x......xx..", "x.........x.", "..........x."],
                 {"x": hexcolour(head)}, 4, 1)
        for y in range(2, 6):
            for x in range(4, 14):
                if img[y][x] != CLEAR:
                    pass
        draw_map(img, ["xxxx", "xxxx"], {"x": hexcolour(head)}, 10, 3)
    else:
        draw_map(img, ["............xx", "...........xxx", "..........xxx.",
                       ".........xxx..", "........xxx...", ".......xxx....",
                       "......xxx.....", ".....xxx......", "..g.xxx.......",
                       "...ggx........", "...hg.........", "..h..g........",
                       ".h............"], {"x": hexcolour(head), "g": hexcolour("e0c040"),
                                            "h": hexcolour("8a5a2b")}, 0, 1)
    return img


# ---- digits ----

FONT = {
    "1": ["..x", ".xx", "..x", "..x", "..x"],
    "2": ["xxx", "..x", "xxx", "x..", "xxx"],
    "3": ["xxx", "..x", ".xx", "..x", "xxx"],
    "4": ["x.x", "x.x", "xxx", "..x", "..x"],
    "5": ["xxx", "x..", "xxx", "..x", "xxx"],
    "6": ["xxx", "x..", "xxx", "x.x", "xxx"],
    "7": ["xxx", "..x", ".x.", ".x.", ".x."],
    "8": ["xxx", "x.x", "xxx", "x.x", "xxx"],
    "9": ["xxx", "x.x", "xxx", "..x", "xxx"],
    "?": ["xxx", "..x", ".xx", "...", ".x."],
}


def digit(ch):
    img = canvas()
    glyph = FONT[ch]
    # Strokes as wide as the picture allows, so that the digit survives
    # being shrunk to a few pixels in the inventory.
    scale_x, scale_y = 4, 3
    ox, oy = 2, 0
    for y, row in enumerate(glyph):
        for x, c in enumerate(row):
            if c == "x":
                for sy in range(scale_y):
                    for sx in range(scale_x):
                        img[oy + y * scale_y + sy][ox + x * scale_x + sx] = hexcolour("ffffff")
    outline = hexcolour("202020")
    result = [row[:] for row in img]
    for y in range(N):
        for x in range(N):
            if img[y][x] == CLEAR and any(
                    0 <= y + dy < N and 0 <= x + dx < N and img[y + dy][x + dx] != CLEAR
                    for dy in (-1, 0, 1) for dx in (-1, 0, 1)):
                result[y][x] = outline
    return result


def unknown():
    img = canvas()
    for y in range(N):
        for x in range(N):
            img[y][x] = hexcolour("ff00ff") if (x // 4 + y // 4) % 2 else hexcolour("000000")
    return img


def debug(shift):
    img = canvas()
    for y in range(N):
        for x in range(N):
            img[y][x] = ((x * 16 + shift) % 256, (y * 16) % 256, (shift * 3) % 256, 255)
    return img


def main():
    opaque = {
        "grass": grass(), "sand": sand(), "stone": stone(), "water": water(), "tree": tree(),
        "lava": lava(), "coal": coal(), "iron": iron(), "furnace": furnace(),
        "plant-young": plant_young(),
    }
    for name, img in opaque.items():
        write_png(name, img, False)
    right = humanoid(HUMAN_RIGHT, PLAYER)
    zombie = humanoid(HUMAN_DOWN, ZOMBIE)
    arrow = arrow_right()
    transparent = {
        "path": path(), "diamond": diamond(), "table": table(), "leaves": leaves(),
        "log": log(), "fence": fence(),
        "player-down": humanoid(HUMAN_DOWN, PLAYER), "player": humanoid(HUMAN_DOWN, PLAYER),
        "player-up": humanoid(HUMAN_UP, PLAYER), "player-right": right,
        "player-left": mirror(right), "player-sleep": player_sleep(),
        "cow": cow(), "zombie": zombie, "skeleton": skeleton(),
        "arrow-right": arrow, "arrow-down": rotate(arrow),
        "arrow-left": rotate(rotate(arrow)), "arrow-up": rotate(rotate(rotate(arrow))),
        "plant": plant(False), "plant-ripe": plant(True), "sapling": sapling(),
        "health": heart(), "food": food(), "drink": drink(), "energy": energy(),
        "wood": log(), "stone": None, "coal": None, "iron": None, "diamond": None,
        "wood_pickaxe": tool("a0703a", "pickaxe"), "stone_pickaxe": tool("9a9a9a", "pickaxe"),
        "iron_pickaxe": tool("e0e0e8", "pickaxe"), "wood_sword": tool("a0703a", "sword"),
        "stone_sword": tool("9a9a9a", "sword"), "iron_sword": tool("e0e0e8", "sword"),
        "unknown": unknown(), "debug": debug(0), "debug-2": debug(85), "debug-3": debug(170),
    }
    # Items named like materials share the material's picture, as in Crafter.
    for name in ("stone", "coal", "iron"):
        del transparent[name]
    transparent["diamond"] = diamond()
    for name, img in transparent.items():
        write_png(name, img, True)
    for ch in "123456789":
        write_png(ch, digit(ch), True)


if __name__ == "__main__":
    main()
