#!/usr/bin/env python3
"""Draw the Crafter toolkit's own 16x16 pixel-art textures.

Every texture is a small hand-written pixel map (one character per pixel)
with a palette.  A few helpers combine maps (an overlay on a terrain base,
a mirrored or rotated sprite, a dark outline around a sprite).  Only the
Python 3 standard library is used: PNGs are written with zlib + struct.

    python3 generate.py [OUTDIR]      (default: the directory of this file)

The file names are those of Crafter's assets, so either folder can be used.
"""

import os
import struct
import sys
import zlib

N = 16
CLEAR = (0, 0, 0, 0)


# --------------------------------------------------------------------------
# PNG output
# --------------------------------------------------------------------------

def write_png(path, grid, alpha):
    """Write a 16x16 grid of RGBA tuples; RGB (colour type 2) if not alpha."""
    raw = bytearray()
    for row in grid:
        raw.append(0)  # filter: none
        for px in row:
            raw.extend(px[:4] if alpha else px[:3])

    def chunk(kind, body):
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', crc)

    ihdr = struct.pack('>IIBBBBB', len(grid[0]), len(grid), 8,
                       6 if alpha else 2, 0, 0, 0)
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) +
                chunk(b'IDAT', zlib.compress(bytes(raw), 9)) +
                chunk(b'IEND', b''))


# --------------------------------------------------------------------------
# Pixel-map helpers
# --------------------------------------------------------------------------

def hexc(s, a=255):
    s = s.lstrip('#')
    return (int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16), a)


def draw(rows, pal):
    """Turn a list of 16 strings into a grid; '.' is transparent."""
    assert len(rows) == N, len(rows)
    grid = []
    for r in rows:
        assert len(r) == N, (r, len(r))
        grid.append([CLEAR if c == '.' else pal[c] for c in r])
    return grid


def over(base, top):
    """Copy the non-transparent pixels of top onto base."""
    return [[t if t[3] else b for b, t in zip(br, tr)]
            for br, tr in zip(base, top)]


def outline(grid, colour):
    """Give a sprite a 1-pixel outline (4-neighbourhood) in colour."""
    out = [row[:] for row in grid]
    for y in range(N):
        for x in range(N):
            if grid[y][x][3]:
                continue
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                u, v = x + dx, y + dy
                if 0 <= u < N and 0 <= v < N and grid[v][u][3]:
                    out[y][x] = colour
                    break
    return out


def mirror(grid):
    return [row[::-1] for row in grid]


def rot_ccw(grid):
    """Rotate 90 degrees counter-clockwise."""
    return [[grid[x][N - 1 - y] for x in range(N)] for y in range(N)]


def rot_cw(grid):
    return [[grid[N - 1 - x][y] for x in range(N)] for y in range(N)]


def shift(grid, dx, dy):
    out = [[CLEAR] * N for _ in range(N)]
    for y in range(N):
        for x in range(N):
            u, v = x + dx, y + dy
            if 0 <= u < N and 0 <= v < N:
                out[v][u] = grid[y][x]
    return out


# --------------------------------------------------------------------------
# Palette (shared colours; textures add their own where needed)
# --------------------------------------------------------------------------

INK = hexc('1c1a1e')          # general sprite outline
WOOD_L = hexc('d29e60')
WOOD = hexc('b07a44')
WOOD_D = hexc('7a4e28')
WOOD_DD = hexc('4e301a')

GRASS = {'g': hexc('56a03a'), 'G': hexc('3f7f2e'), 'l': hexc('7cbe4a')}
STONE = {'a': hexc('83838a'), 'D': hexc('5e5e66'), 'L': hexc('a4a4ac')}


# --------------------------------------------------------------------------
# Terrain
# --------------------------------------------------------------------------

GRASS_MAP = [
    "gggggggggggggggg",
    "ggglgggggggggggg",
    "ggGlGggggggglggg",
    "gggggggggggGlGgg",
    "gggggggggggggggg",
    "gggggggglggggggg",
    "lggggggGlGgggggg",
    "lGgggggggggggggG",
    "gggggggggggggggg",
    "ggggglgggggggggg",
    "ggggGlGggggglggg",
    "gggggggggggGlGgg",
    "gglggggggggggggg",
    "gGlGggggglgggggg",
    "ggggggggGlGggggg",
    "gggggggggggggggg",
]

SAND_MAP = [
    "ssssssssssssssss",
    "ssdsssssssslssss",
    "ssssssssssssssss",
    "sssssslssssssdss",
    "sdssssssssssssss",
    "ssssssssdddsssss",
    "sssslsssssssssls",
    "ssssssssssssssss",
    "ssdddssssssdssss",
    "ssssssssssssssss",
    "sssssssslsssssss",
    "slsssssssssdddss",
    "ssssssdsssssssss",
    "ssssssssssssssss",
    "ssssdssssslsssss",
    "ssssssssssssssds",
]
SAND = {'s': hexc('dcc47e'), 'd': hexc('c0a666'), 'l': hexc('f0e0a8')}

STONE_MAP = [
    "aaaaaaaDaaaaaaaa",
    "aLLaaaaDaaaLLaaa",
    "aLaaaaDaaaaLaaaa",
    "aaaaaaDaaaaaaaDa",
    "DDaaaaaaaaaaaDaa",
    "aaDDaaaLLaaaDaaa",
    "aaaaDaaLaaaaDaaa",
    "aLaaaDDaaaaDaaLa",
    "aLaaaaaDDDDaaaaa",
    "aaaaaaaaaaaDaaaa",
    "aaaaLLaaaaaaDDaa",
    "aaaaLaaaaaaaaaDD",
    "DaaaaaaaDaaaaaaa",
    "aDaaaaaDaaaLLaaa",
    "aaDDaaDaaaaLaaaa",
    "aaaaDDaaaaaaaaaa",
]

WATER_MAP = [
    "bbbbbbbbbbbbbbbb",
    "bbbbllbbbbbbbbbb",
    "bbllbbllbbbbBBbb",
    "bbbbbbbbbbbbbbbb",
    "bbbbbbbbbbbllbbb",
    "bBBbbbbbbllbbllb",
    "bbbbbbbbbbbbbbbb",
    "bbbbbbbbbbbbbbbb",
    "bbbbbllbbbbbbbbb",
    "bbbllbbllbbbbBBb",
    "bbbbbbbbbbbbbbbb",
    "lbbbbbbbbbbbbbbl",
    "bllbbbbbbbbbbllb",
    "bbbbbbbbbbllbbbb",
    "bbBBbbbbbllbllbb",
    "bbbbbbbbbbbbbbbb",
]
WATER = {'b': hexc('3668c8'), 'B': hexc('284ea0'), 'l': hexc('78a8ec')}

LAVA_MAP = [
    "rrroorrrrrrdrrrr",
    "rroyyorrrrddrroo",
    "rroyyorrrrrrroyo",
    "rrroorrrddrrrroo",
    "drrrrrrrdrrrrrrr",
    "ddrrrooorrrrrrrd",
    "rrrroyyyorrrrrdd",
    "rrrroyyyorrdrrrr",
    "rrrrrooorrrddrrr",
    "roorrrrrrrrrrrrr",
    "oyyorrrddrrrooor",
    "oyyorrrrdrrroyyo",
    "rooorrrrrrrroyyo",
    "rrrrrdrrrrrrrooo",
    "rrrrddrrroorrrrr",
    "rrrrrrrrroyorrrr",
]
LAVA = {'r': hexc('d44a18'), 'o': hexc('f48c1e'), 'y': hexc('ffd650'),
        'd': hexc('8c2414')}

TREE_MAP = [
    ".....SSSSSS.....",
    "...SSTTLLTTSS...",
    "..STTLLlTTTTTS..",
    ".STTLlLTTTLLTTS.",
    ".STLLTTTTTLlTTS.",
    "STTTTTTLLTTTTTTS",
    "STTLLTTLlTTTLTTS",
    "STTLlTTTTTTLLTTS",
    ".STTTTTTTTTTTTS.",
    ".SSTTTLTTTTTTSS.",
    "..SSTTTTTTTTSS..",
    "....SSSWWwSS....",
    "......WWWw......",
    "......WWWw......",
    ".....wWWWww.....",
    "................",
]
TREE = {'S': hexc('1a4a20'), 'T': hexc('246a2c'), 'L': hexc('3a8a3a'),
        'l': hexc('5aa64a'), 'W': hexc('845430'), 'w': hexc('5a381e')}

COAL_MAP = [
    "................",
    "................",
    "..kk............",
    ".khkk.....kk....",
    ".kkkk....khkk...",
    "..kk.....kkkk...",
    "..........kk....",
    "................",
    ".....kk.........",
    "....khkk........",
    "....kkkk....kk..",
    ".....kk....khkk.",
    "...........kkkk.",
    "............kk..",
    "................",
    "................",
]
COAL = {'k': hexc('222226'), 'h': hexc('50505a')}

IRON_MAP = [
    "................",
    ".........ow.....",
    "........oooO....",
    "...ow....oO.....",
    "..oooO..........",
    "...oO...........",
    "...........ow...",
    "..........oooO..",
    ".....ow....oO...",
    "....oooO........",
    ".....oO.........",
    "................",
    "..ow.......ow...",
    ".oooO.....oooO..",
    "..oO.......oO...",
    "................",
]
IRON = {'o': hexc('d8a070'), 'O': hexc('a0603c'), 'w': hexc('f8dcc0')}

DIAMOND_MAP = [
    "................",
    "................",
    "...w............",
    "..wcc.....w.....",
    ".wcccC...wcc....",
    "..cCC...wcccC...",
    "...C.....cCC....",
    "..........C.....",
    "................",
    ".....w..........",
    "....wcc......w..",
    "...wcccC....wcc.",
    "....cCC....wcccC",
    ".....C......cCC.",
    ".............C..",
    "................",
]
DIAMOND = {'w': hexc('ffffff'), 'c': hexc('5ee0ea'), 'C': hexc('2694b4')}

FURNACE_MAP = [
    "mmmmmmmmmmmmmmmm",
    "mLLLLLLmLLLLLLLm",
    "mBBBBBBmBBBBBBBm",
    "mmmmmmmmmmmmmmmm",
    "mLLLmLLLLLLmLLLm",
    "mBBBmBBBBBBmBBBm",
    "mmmmDDDDDDDDmmmm",
    "mLLDDDDDDDDDDLLm",
    "mBBDDDDDDDDDDBBm",
    "mmmDDDDryDDDDmmm",
    "mLLDDDrfyrDDDLLm",
    "mBBDDrfyyfrDDBBm",
    "mmmDrffyyffrDmmm",
    "mLLDDrrffrrDDLLm",
    "mBBmmmmmmmmmmBBm",
    "mmmmmmmmmmmmmmmm",
]
FURNACE = {'m': hexc('5e5a58'), 'B': hexc('96928c'), 'L': hexc('b8b4ac'),
           'D': hexc('2a2424'), 'r': hexc('d23c1e'), 'f': hexc('fa9628'),
           'y': hexc('ffe66e')}

PATH_MAP = [
    "aaaaaaagbbbbbbbg",
    "allaaaagblbbbbbg",
    "alaaaaagbbbbbbbg",
    "aaaaaaagbbbbbbbg",
    "aaaaaaagbbbbbbbg",
    "ggggggggbbbbbbbg",
    "bbbbgaaagggggggg",
    "blbbgalaaaaaagbb",
    "bbbbgaaaaaaaagbl",
    "bbbbgaaaaaaaagbb",
    "bbbbgaaaaaaaagbb",
    "ggggggggggggggbb",
    "aalaagbbbbbbbgbb",
    "aaaaagblbbbbbggg",
    "aaaaagbbbbbbbgaa",
    "gggggggggggggggg",
]
PATH = {'a': hexc('9a8e7c'), 'b': hexc('8a806e'), 'g': hexc('5a5246'),
        'l': hexc('b4a890')}

TABLE_MAP = [
    "FFFFFFFFFFFFFFFF",
    "FlllldlllldllllF",
    "FwwwwdwwwwdwwwwF",
    "FwwwwdwwwwdwwwwF",
    "FwwwwdwwwwdwwwwF",
    "FddddddddddddddF",
    "FlllldlllldllllF",
    "FwwwwdwwwwdwwwwF",
    "FwwwwdwwwwdwwwwF",
    "FwwwwdwwwwdwwwwF",
    "FddddddddddddddF",
    "FlllldlllldllllF",
    "FwwwwdwwwwdwwwwF",
    "FwwwwdwwwwdwwwwF",
    "FwwwwdwwwwdwwwwF",
    "FFFFFFFFFFFFFFFF",
]
TABLE = {'F': WOOD_DD, 'd': WOOD_D, 'w': WOOD, 'l': WOOD_L}

LEAVES_MAP = [
    "TTLlTTSTTTTLlTTS",
    "TLLLTSTLlTTLLLTT",
    "STLTTTLLLTSTLTTS",
    "TSSTSTTLTSTTSSTT",
    "TTTLlTSSTTTLlTTT",
    "LlTLLLTTTTLLLTLl",
    "LLSTLTTLlTSLTSLL",
    "TSTTSSTLLLTSSTTL",
    "STTLlTTTLTTTLlTS",
    "TTLLLTSSSTTLLLTT",
    "TTTLTTTLlTSTLTST",
    "LlTSSTLLLTTSSTLl",
    "LLTTTTTLTSTTTTLL",
    "TSTLlTTSSTTLlTSS",
    "TTLLLTSTTTLLLTTT",
    "STTLTTTTLlTTLTST",
]

LOG_MAP = [
    "BbbbbBbbbbBbbbbB",
    "bbbBbkkkkkkbbBbb",
    "bBbkkrrrrrrkkbbb",
    "bbkrrrRRRRrrrkBb",
    "bbkrRRrrrrRRrkbb",
    "BkrrRrrrrrrRrrkB",
    "bkrRrrRRRRrrRrkb",
    "bkrRrRrccrRrRrkb",
    "bkrRrRrccrRrRrkb",
    "bkrRrrRRRRrrRrkb",
    "BkrrRrrrrrrRrrkB",
    "bbkrRRrrrrRRrkbb",
    "bBkrrrRRRRrrrkbb",
    "bbbkkrrrrrrkkbBb",
    "bbBbbkkkkkkbBbbb",
    "BbbbbBbbbbBbbbbB",
]
LOG = {'b': hexc('6a4424'), 'B': hexc('4a2e16'), 'k': hexc('8a5a30'),
       'r': hexc('dcb478'), 'R': hexc('b48850'), 'c': hexc('8a5a30')}

FENCE_MAP = [
    "................",
    "...h.......h....",
    "..hwd.....hwd...",
    "..hwd.....hwd...",
    "hhhwdhhhhhhwdhhh",
    "wwhwdwwwwwhwdwww",
    "ddhwdddddddwdddd",
    "..hwd.....hwd...",
    "..hwd.....hwd...",
    "hhhwdhhhhhhwdhhh",
    "wwhwdwwwwwhwdwww",
    "ddhwdddddddwdddd",
    "..hwd.....hwd...",
    "..hwd.....hwd...",
    "..ddd.....ddd...",
    "................",
]
FENCE = {'h': WOOD_L, 'w': WOOD, 'd': WOOD_D}

# Overlays drawn on grass ---------------------------------------------------

PLANT_MAP = [
    "................",
    "................",
    "................",
    ".......l........",
    "......lpP.......",
    "..l...lpP...l...",
    ".lpP...P...lpP..",
    ".lppP..P..lppP..",
    "..ppPP.P.PppP...",
    "...PPPPPPPPP....",
    ".....lpPpP......",
    "....lppPppP.....",
    ".....PPPPP......",
    ".......P........",
    "....ssSSSSs.....",
    "................",
]
PLANT = {'P': hexc('1e6424'), 'p': hexc('60b840'), 'l': hexc('a0dc5a'),
         's': hexc('6e4c2c'), 'S': hexc('50361e'),
         'r': hexc('e63228'), 'R': hexc('a01818'), 'h': hexc('ffb4a0')}

PLANT_RIPE_MAP = [
    "................",
    "................",
    "................",
    ".......l........",
    "......lpP.......",
    "..l...lpP...l...",
    ".lpP...P...lpP..",
    ".lppP..P..lppP..",
    ".hrpPP.P.PphrR..",
    ".rrRPPPPPPPrRR..",
    "..RR.lpPpP.RR...",
    "....lpphrP......",
    ".....PPrRR......",
    ".......RR.......",
    "....ssSSSSs.....",
    "................",
]

SAPLING_MAP = [
    "................",
    "................",
    "......ll........",
    ".....lppP.ll....",
    ".....ppPPlppP...",
    "......PP.ppPP...",
    "..ll...w..PP....",
    ".lppP..w.w......",
    ".ppPP..ww.......",
    "..PP.w.w........",
    ".....www........",
    ".......w........",
    ".......w........",
    ".....ssSSs......",
    "....sSSSSSs.....",
    "................",
]
SAPLING = dict(PLANT, w=hexc('7a4e28'))


# --------------------------------------------------------------------------
# Creatures
# --------------------------------------------------------------------------

PERSON = {'h': hexc('4a2e1e'), 's': hexc('eebc8c'), 'S': hexc('c89264'),
          'e': hexc('202040'), 'm': hexc('b46e5a'),
          'r': hexc('d6483a'), 'R': hexc('a63028'),
          'b': hexc('34468c'), 'B': hexc('26336a'), 'k': hexc('2a2222'),
          'p': hexc('8a5a30')}

PLAYER_DOWN_MAP = [
    "................",
    ".....hhhhhh.....",
    "....hhhhhhhh....",
    "....hssssssh....",
    "....ssessess....",
    "....ssssssss....",
    ".....ssmmss.....",
    "...rrrrrrrrrr...",
    "...rrrrRRrrrr...",
    "...srrrrrrrrs...",
    "....bbbbbbbb....",
    "....bbb..bbb....",
    "....bbb..bbb....",
    "....kkk..kkk....",
    "................",
    "................",
]

PLAYER_UP_MAP = [
    "................",
    ".....hhhhhh.....",
    "....hhhhhhhh....",
    "....hhhhhhhh....",
    "....hhhhhhhh....",
    "....hhhhhhhh....",
    ".....SssssS.....",
    "...rrpppppprr...",
    "...rrppppppRr...",
    "...srrpppprrs...",
    "....bbbbbbbb....",
    "....bbb..bbb....",
    "....bbb..bbb....",
    "....kkk..kkk....",
    "................",
    "................",
]

PLAYER_LEFT_MAP = [
    "................",
    ".....hhhhhh.....",
    "....hhhhhhhh....",
    "....ssssshhh....",
    "...ssessshhh....",
    "....sssssshh....",
    ".....sssss......",
    ".....rrRRrr.....",
    ".....rrRRrr.....",
    ".....rrsSrr.....",
    "......bbbb......",
    ".....bbb.bb.....",
    ".....bb...bb....",
    "....kkk..kkk....",
    "................",
    "................",
]

ZOMBIE = {'g': hexc('6eaa50'), 'G': hexc('4c7e38'), 'e': hexc('141414'),
          'm': hexc('2c4420'), 't': hexc('3c7878'), 'T': hexc('285a5c'),
          'p': hexc('5a4482'), 'k': hexc('2a2a30')}

ZOMBIE_MAP = [
    "................",
    ".....GGGGGG.....",
    "....GggggggG....",
    "....gggggggg....",
    "....geeggeeg....",
    "....gggggggg....",
    ".....gmmmmg.....",
    ".gTTttttttttTTg.",
    ".gTTtttTttttTTg.",
    "....ttTtttTt....",
    "....pppppppp....",
    "....ppp..ppp....",
    "....ppp..ppp....",
    "....GGG..kkk....",
    "................",
    "................",
]

SKELETON = {'w': hexc('eceadc'), 'W': hexc('b4b2a4'), 'k': hexc('34343a'),
            'b': hexc('8a5628'), 's': hexc('9a9a9a')}

SKELETON_MAP = [
    "................",
    ".....wwwwww.....",
    "....wwwwwwww.b..",
    "....wkkwwkkw.sb.",
    "....wkkwwkkw.sb.",
    "....wwwkkwww.sb.",
    ".....wkwwkw..sb.",
    "...wwwwwwwwwwsb.",
    "...w.wkwwkw.wwb.",
    "...w.wwwwww..sb.",
    "...w.wkwwkw..sb.",
    "...w..wwww...sb.",
    ".....w....w..sb.",
    ".....w....w..b..",
    "....ww....ww....",
    "................",
]

COW = {'w': hexc('f4f0e8'), 'W': hexc('c8c2b8'), 'k': hexc('2a2626'),
       'p': hexc('f0a0a8'), 'n': hexc('a85a64'), 'y': hexc('e8d8a0'),
       'e': hexc('141414')}

COW_MAP = [
    "................",
    "................",
    ".y...y..........",
    ".kwwwk..........",
    "..wewwwwwkkkww..",
    "..wwwwwwkkkkwwk.",
    ".pppppwwwwwwkkk.",
    ".pnpnpwkkwwwwww.",
    "..ppp.wkkkwwWWW.",
    "......wWWWppWWW.",
    "......kk.kk.kk..",
    "......kk.kk.kk..",
    "................",
    "................",
    "................",
    "................",
]

ARROW = {'h': hexc('c8ccd4'), 'w': hexc('9a6432'), 'r': hexc('dc3c32')}

ARROW_RIGHT_MAP = [
    "................",
    "................",
    "................",
    "................",
    "................",
    "................",
    "..r.......h.....",
    "...r......hh....",
    "..rrwwwwwwhhh...",
    "...r......hh....",
    "..r.......h.....",
    "................",
    "................",
    "................",
    "................",
    "................",
]


# --------------------------------------------------------------------------
# Inventory icons
# --------------------------------------------------------------------------

HEALTH_MAP = [
    "................",
    "................",
    "..RRRR....RRRR..",
    ".RRwwRR..RRRRRR.",
    ".RwwRRRRRRRRRRR.",
    ".RwRRRRRRRRRRRD.",
    ".RRRRRRRRRRRRRD.",
    "..RRRRRRRRRRRD..",
    "...RRRRRRRRRD...",
    "....RRRRRRRD....",
    ".....RRRRRD.....",
    "......RRRD......",
    ".......RD.......",
    "................",
    "................",
    "................",
]
HEALTH = {'R': hexc('e22834'), 'w': hexc('ffaaaa'), 'D': hexc('a01424')}

FOOD_MAP = [
    "................",
    "....mmmm........",
    "..mmhhmmmm......",
    ".mmhhmmmmmm.....",
    ".mhhmmmmmmmm....",
    ".mhmmmmmmmmM....",
    ".mmmmmmmmmMM....",
    "..mmmmmmmMMM....",
    "..MmmmmmMMM.....",
    "...MMmmMMMbb....",
    ".....MMMMbbB....",
    "........bbB.....",
    ".......bbBbb....",
    "........bBBBb...",
    ".........bBb....",
    "................",
]
FOOD = {'m': hexc('b05634'), 'M': hexc('803622'), 'h': hexc('d68050'),
        'b': hexc('f0e8d2'), 'B': hexc('c8beaa')}

DRINK_MAP = [
    "................",
    ".......bb.......",
    "......bbbb......",
    "......bbbb......",
    ".....bbbbbb.....",
    ".....bbbbbb.....",
    "....bbbbbbbb....",
    "...bbbbbbbbbb...",
    "...bwbbbbbbbb...",
    "..bbwbbbbbbbBb..",
    "..bbwwbbbbbbBb..",
    "..bbbwbbbbbBBb..",
    "..bbbbbbbbbBBb..",
    "...bbbbbbbBBb...",
    "....BbbbbBBB....",
    "................",
]
DRINK = {'b': hexc('3c82e6'), 'w': hexc('c8e6ff'), 'B': hexc('2450aa')}

ENERGY_MAP = [
    "................",
    ".........wyyy...",
    "........wyyyo...",
    ".......wyyyo....",
    "......wyyyo.....",
    ".....wyyyo......",
    "....wyyyyyyyo...",
    "...wyyyyyyyo....",
    ".......yyyo.....",
    "......yyyo......",
    ".....yyyo.......",
    "....yyo.........",
    "...yyo..........",
    "..yo............",
    "................",
    "................",
]
ENERGY = {'y': hexc('ffdc28'), 'w': hexc('fffab4'), 'o': hexc('e69614')}

WOOD_MAP = [
    "................",
    "................",
    "................",
    "................",
    "..hhhhhhhhhRRR..",
    ".bbbbbbbbbRrrrR.",
    ".bBBBbbbBBRrrrR.",
    ".bbbbbbbbbRrRrR.",
    ".bbbBBBbbbRrRrR.",
    ".BBbbbbbBBRrrrR.",
    ".bbbbbbbbbRrrrR.",
    "..BBBBBBBBBRRR..",
    "................",
    "................",
    "................",
    "................",
]
WOOD_ICON = {'h': hexc('a06c3c'), 'b': hexc('84542c'), 'B': hexc('5e3a1c'),
             'r': hexc('e0bc80'), 'R': hexc('b08650')}

PICKAXE_MAP = [
    "................",
    "....HHHHh.......",
    "..HHHHHHHHh.....",
    ".HHH....HHHh....",
    ".HH.....wHHHh...",
    ".H.....wWwHHH...",
    "......wWw.HHHh..",
    ".....wWw...HHH..",
    "....wWw....HHH..",
    "...wWw......HHh.",
    "..wWw.......HH..",
    ".wWw........H...",
    ".Ww.............",
    "................",
    "................",
    "................",
]

SWORD_MAP = [
    "................",
    "............hHH.",
    "...........hHHD.",
    "..........hHHD..",
    ".........hHHD...",
    "........hHHD....",
    ".......hHHD.....",
    "..G...hHHD......",
    "..GG.hHHD.......",
    "...GGHHD........",
    "....GGD.........",
    "....wGGG........",
    "...wW..GG.......",
    "..wW....G.......",
    ".pp.............",
    ".pp.............",
]


def tool_palette(head, head_l, head_d):
    """H/h/D: head (or blade) and its light and dark edges; w/W: handle;
    G: sword guard; p: pommel."""
    return {'H': head, 'h': head_l, 'D': head_d,
            'w': WOOD, 'W': WOOD_D, 'G': hexc('6a4a2a'), 'p': head_d}


TOOLS = {
    'wood': tool_palette(hexc('c8945a'), hexc('e6be86'), hexc('8e5e32')),
    'stone': tool_palette(hexc('8c8c94'), hexc('b4b4bc'), hexc('5e5e66')),
    'iron': tool_palette(hexc('d6dae2'), hexc('ffffff'), hexc('9aa0ac')),
}


# --------------------------------------------------------------------------
# Digits: a 3x4 block font.  The game draws digits at 0.6 of a cell, which
# is 4x4 pixels for the default 64x64 view, so each glyph is built from
# blocks laid out such that nearest-neighbour sampling at any size from 4x4
# to 10x10 hits every block: columns x = 2..5, 6..9, 10..13 and rows
# y = 1..3, 4..7, 8..11, 12..14, inside a dark outline.
# --------------------------------------------------------------------------

FONT = {
    '1': ["110", "010", "010", "111"],
    '2': ["111", "001", "110", "111"],
    '3': ["111", "011", "001", "111"],
    '4': ["101", "101", "111", "001"],
    '5': ["111", "100", "011", "110"],
    '6': ["100", "111", "101", "111"],
    '7': ["111", "001", "010", "010"],
    '8': ["111", "101", "111", "111"],
    '9': ["111", "101", "111", "001"],
}
DIGIT_FG = hexc('ffffff')
DIGIT_INK = hexc('141418')


def glyph(ch):
    cols = [(2, 4), (6, 4), (10, 4)]       # x start, width
    rows = [(1, 3), (4, 4), (8, 4), (12, 3)]
    grid = [[CLEAR] * N for _ in range(N)]
    for r, line in enumerate(FONT[ch]):
        for c, bit in enumerate(line):
            if bit != '1':
                continue
            x0, w = cols[c]
            y0, h = rows[r]
            for y in range(y0, y0 + h):
                for x in range(x0, x0 + w):
                    grid[y][x] = DIGIT_FG
    grid = outline(grid, DIGIT_INK)
    # outline the diagonal corners too, for a solid dark rim
    out = [row[:] for row in grid]
    for y in range(N):
        for x in range(N):
            if grid[y][x][3]:
                continue
            for dx, dy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
                u, v = x + dx, y + dy
                if 0 <= u < N and 0 <= v < N and grid[v][u] == DIGIT_FG:
                    out[y][x] = DIGIT_INK
    if ch == '8':
        # a second, lower loop; its pixels fall between the 4x4 samples, so
        # it shows from 5x5 up and leaves the smallest size unchanged
        for y in (11, 12):
            for x in (7, 8):
                out[y][x] = DIGIT_INK
    return out


# --------------------------------------------------------------------------
# Debug patterns
# --------------------------------------------------------------------------

def debug_pattern(kind):
    m, y, c, w, k = (hexc('ff00ff'), hexc('ffff00'), hexc('00ffff'),
                     hexc('ffffff'), hexc('000000'))
    g = [[CLEAR] * N for _ in range(N)]
    for j in range(N):
        for i in range(N):
            if kind == 1:        # magenta / clear 4 px checker, black frame
                g[j][i] = m if ((i // 4 + j // 4) % 2 == 0) else CLEAR
                if i in (0, N - 1) or j in (0, N - 1):
                    g[j][i] = k
            elif kind == 2:      # yellow concentric squares
                ring = min(i, j, N - 1 - i, N - 1 - j)
                g[j][i] = y if ring % 2 == 0 else CLEAR
            else:                # cyan diagonal stripes, half alpha between
                s = (i + j) % 4
                g[j][i] = c if s < 2 else (c[0], c[1], c[2], 128)
    if kind == 2:
        for j in (7, 8):
            for i in (7, 8):
                g[j][i] = w
    return g


# --------------------------------------------------------------------------
# Build everything
# --------------------------------------------------------------------------

def build():
    t = {}  # name -> (grid, alpha)
    grass = draw(GRASS_MAP, GRASS)
    stone = draw(STONE_MAP, STONE)

    t['grass'] = (grass, False)
    t['sand'] = (draw(SAND_MAP, SAND), False)
    t['stone'] = (stone, False)
    t['water'] = (draw(WATER_MAP, WATER), False)
    t['lava'] = (draw(LAVA_MAP, LAVA), False)
    t['tree'] = (over(grass, draw(TREE_MAP, TREE)), False)
    t['coal'] = (over(stone, draw(COAL_MAP, COAL)), False)
    t['iron'] = (over(stone, draw(IRON_MAP, IRON)), False)
    t['furnace'] = (draw(FURNACE_MAP, FURNACE), False)
    plant = outline(draw(PLANT_MAP, PLANT), hexc('14361a'))
    t['plant-young'] = (over(grass, plant), False)
    t['diamond'] = (over(stone, draw(DIAMOND_MAP, DIAMOND)), True)
    t['path'] = (draw(PATH_MAP, PATH), True)
    t['table'] = (draw(TABLE_MAP, TABLE), True)
    t['leaves'] = (draw(LEAVES_MAP, TREE), True)
    t['log'] = (draw(LOG_MAP, LOG), True)
    t['fence'] = (outline(draw(FENCE_MAP, FENCE), hexc('3a2412')), True)

    t['plant'] = (plant, True)
    t['plant-ripe'] = (outline(draw(PLANT_RIPE_MAP, PLANT), hexc('14361a')),
                       True)
    t['sapling'] = (outline(draw(SAPLING_MAP, SAPLING), hexc('14361a')), True)

    down = draw(PLAYER_DOWN_MAP, PERSON)
    left = draw(PLAYER_LEFT_MAP, PERSON)
    t['player-down'] = (outline(down, INK), True)
    t['player'] = t['player-down']
    t['player-up'] = (outline(draw(PLAYER_UP_MAP, PERSON), INK), True)
    t['player-left'] = (outline(left, INK), True)
    t['player-right'] = (outline(mirror(left), INK), True)
    # sleeping: the front view laid on its back, eyes shut, with a "z z"
    shut = [[PERSON['S'] if p == PERSON['e'] else p for p in row]
            for row in down]
    lying = shift(rot_ccw(shut), 0, 3)
    zz = draw([
        "..........zzzz..",
        "............z...",
        "...........z....",
        "..........zzzz..",
        "................",
    ] + ["................"] * 11, {'z': hexc('ffffff')})
    t['player-sleep'] = (outline(over(lying, zz), INK), True)

    t['zombie'] = (outline(draw(ZOMBIE_MAP, ZOMBIE), INK), True)
    t['skeleton'] = (outline(draw(SKELETON_MAP, SKELETON), INK), True)
    t['cow'] = (outline(draw(COW_MAP, COW), INK), True)

    arrow = outline(draw(ARROW_RIGHT_MAP, ARROW), INK)
    t['arrow-right'] = (arrow, True)
    t['arrow-left'] = (mirror(arrow), True)
    t['arrow-up'] = (rot_ccw(arrow), True)
    t['arrow-down'] = (rot_cw(arrow), True)

    t['health'] = (outline(draw(HEALTH_MAP, HEALTH), hexc('3c0a10')), True)
    t['food'] = (outline(draw(FOOD_MAP, FOOD), hexc('3a1a10')), True)
    t['drink'] = (outline(draw(DRINK_MAP, DRINK), hexc('102450')), True)
    t['energy'] = (outline(draw(ENERGY_MAP, ENERGY), hexc('503200')), True)
    t['wood'] = (outline(draw(WOOD_MAP, WOOD_ICON), hexc('32200e')), True)
    for mat, pal in TOOLS.items():
        t[mat + '_pickaxe'] = (outline(draw(PICKAXE_MAP, pal), INK), True)
        t[mat + '_sword'] = (outline(draw(SWORD_MAP, pal), INK), True)

    for d in '123456789':
        t[d] = (glyph(d), True)
    # unknown (also shown for counts above 9): magenta/black 4 px checker
    t['unknown'] = ([[hexc('e01ee0') if ((x // 4 + y // 4) % 2 == 0)
                      else hexc('141418') for x in range(N)]
                     for y in range(N)], True)

    t['debug'] = (debug_pattern(1), True)
    t['debug-2'] = (debug_pattern(2), True)
    t['debug-3'] = (debug_pattern(3), True)
    return t


OPAQUE = {'grass', 'sand', 'stone', 'water', 'tree', 'lava', 'coal', 'iron',
          'furnace', 'plant-young', 'path', 'diamond', 'table', 'leaves',
          'log'}


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.abspath(__file__))
    os.makedirs(outdir, exist_ok=True)
    textures = build()
    for name, (grid, alpha) in sorted(textures.items()):
        assert len(grid) == N and all(len(r) == N for r in grid), name
        if name in OPAQUE:
            assert all(p[3] == 255 for r in grid for p in r), name
        write_png(os.path.join(outdir, name + '.png'), grid, alpha)
    print('wrote %d textures to %s' % (len(textures), outdir))


if __name__ == '__main__':
    main()
