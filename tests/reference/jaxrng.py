"""JAX's random draws, printed for lib/kernels/jaxrng.c to be checked against.

Runs jax.random on JAX's CPU backend with its defaults (32-bit types, the
threefry2x32 generator, the partitionable layout) over keys and arguments
drawn from a seed, and prints one case a line:

    key SEED = K0 K1                        PRNGKey(SEED)
    split K0 K1 SHAPE = W0 W1 ...           split(key, SHAPE), the keys' words in order
    fold_in K0 K1 DATA = K0 K1              fold_in(key, DATA)
    bits K0 K1 SHAPE = B ...                bits(key, SHAPE, uint32)
    uniform K0 K1 SHAPE MIN MAX = F ...     uniform(key, SHAPE, float32, MIN, MAX)
    randint K0 K1 SHAPE MIN MAX = I ...     randint(key, SHAPE, MIN, MAX) (int32)
    choice K0 K1 SHAPE N = I ...            choice(key, N, SHAPE)
    choice_p K0 K1 SHAPE N P... = I ...     choice(key, N, SHAPE, p=P)
    choice_mask K0 K1 SHAPE N MASK = I ...  choice(key, N, SHAPE, p=m / m.sum()), as
                                            Craftax draws a cell (m: N bits, hex)
    cumsum N P... = F ...                   jnp.cumsum(P)
    bernoulli K0 K1 SHAPE P = 0|1 ...       bernoulli(key, P, SHAPE)

Key words and uint32 bits are 8 hex digits; a float32 is the 8 hex digits
of its bits; SHAPE is '-' for (), else the sizes joined by 'x'; the values
of a draw are in row-major order.  The cases are the same for the same
--seed; tests/data/jaxrng/golden.txt was made with

    build-reference/craftax-venv/bin/python tests/reference/jaxrng.py \\
        --seed 1 > tests/data/jaxrng/golden.txt

(jax and jaxlib 0.10.2, CPU, x86-64; 0.10.1 prints the same bytes).  --original-layout prints JAX's draws
with jax_threefry_partitionable off, the layout jaxrng.c does not follow:
tests/jaxrng.t shows the C check refuses them.
"""

import argparse
import os
import random
import sys

os.environ.setdefault('JAX_PLATFORMS', 'cpu')

import numpy as np  # noqa: E402


KINDS = ['key', 'split', 'fold_in', 'bits', 'uniform', 'randint', 'choice', 'choice_p',
         'choice_mask', 'cumsum', 'bernoulli']


def shape_text(shape):
    return 'x'.join(str(s) for s in shape) if shape else '-'


def f32_hex(values):
    return ' '.join('%08x' % w for w in np.asarray(values, np.float32).reshape(-1).view(np.uint32))


def u32_hex(values):
    return ' '.join('%08x' % int(w) for w in np.asarray(values).reshape(-1))


def ints(values):
    return ' '.join(str(int(v)) for v in np.asarray(values).reshape(-1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--seed', type=int, default=1, help='the seed of the cases (default 1)')
    parser.add_argument('--scale', type=int, default=1,
                        help='cases of each kind, as a multiple of the default number')
    parser.add_argument('--quick', action='store_true',
                        help="one shape of each kind, picked by the seed, and one sum: "
                             'fewer compilations, for a run of a few seconds')
    parser.add_argument('--kinds', default=','.join(KINDS),
                        help='the kinds of cases to print, joined by commas (default all)')
    parser.add_argument('--jit', action='store_true',
                        help='each call inside a jax.jit of its own, its arguments traced, '
                             'as Craftax makes its draws')
    parser.add_argument('--original-layout', action='store_true',
                        help="JAX's non-partitionable threefry layout")
    args = parser.parse_args()

    import jax
    import jax.numpy as jnp
    if args.original_layout:
        jax.config.update('jax_threefry_partitionable', False)
    assert not jax.config.jax_enable_x64
    assert jax.config.jax_default_prng_impl == 'threefry2x32'

    kinds = set(args.kinds.split(','))
    if not kinds <= set(KINDS):
        parser.error('unknown kinds: %s' % ', '.join(sorted(kinds - set(KINDS))))
    rng = random.Random(args.seed)
    jitted = {}

    def call(function, *dynamic, **static):
        # function(*dynamic, **static), eagerly as JAX runs it by default,
        # or (--jit) inside one jax.jit per function and static arguments.
        if not args.jit:
            return function(*dynamic, **static)
        name = (function, tuple(sorted(static.items())))
        if name not in jitted:
            jitted[name] = jax.jit(lambda *d: function(*d, **static))
        return jitted[name](*dynamic)

    # The calls, their traced arguments first.
    def uniform(key, low, high, shape):
        return jax.random.uniform(key, shape, jnp.float32, low, high)

    def randint(key, low, high, shape):
        return jax.random.randint(key, shape, low, high)

    def p_choice(key, p, n, shape):
        return jax.random.choice(key, n, shape, p=p)

    def masked_choice(key, valid, n, shape):
        return jax.random.choice(key, jnp.arange(n), shape, p=valid / valid.sum())

    out = sys.stdout
    scale = args.scale

    def a_key():
        # Half the keys as Craftax has them (split from a small seed), half
        # any two words.
        if rng.random() < 0.5:
            key = jax.random.PRNGKey(rng.randrange(100000))
            for _ in range(rng.randrange(3)):
                key = jax.random.split(key)[rng.randrange(2)]
            return key
        return jnp.array([rng.getrandbits(32), rng.getrandbits(32)], dtype=jnp.uint32)

    def some(cases):
        # Every shape JAX compiles a draw for costs about 0.1 s.
        return rng.sample(cases, 1) if args.quick else cases

    def key_text(key):
        return u32_hex(key)

    # Seeds: small, negative, past 32 bits, the ends of int64.
    seeds = [0, 1, 2, 42, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 5, 2**40 + 7,
             -1, -2, -2**31, -2**31 - 1, -2**40, 2**63 - 1, -2**63]
    seeds += [rng.randrange(-2**63, 2**63) for _ in range(8 * scale)]
    seeds += [rng.randrange(2**31) for _ in range(8 * scale)]
    for seed in seeds if 'key' in kinds else []:
        out.write('key %d = %s\n' % (seed, u32_hex(jax.random.PRNGKey(seed))))

    for _ in range(12 * scale if 'split' in kinds else 0):
        for shape in some([(2,), (3,), (5,), (2, 3)]):
            key = a_key()
            keys = call(jax.random.split, key, num=shape if len(shape) > 1 else shape[0])
            out.write('split %s %s = %s\n' % (key_text(key), shape_text(shape), u32_hex(keys)))

    for _ in range(16 * scale if 'fold_in' in kinds else 0):
        key = a_key()
        data = rng.choice([0, 1, 7, rng.getrandbits(32), rng.getrandbits(31)])
        out.write('fold_in %s %d = %s\n' % (key_text(key), data,
                                            u32_hex(call(jax.random.fold_in, key, np.uint32(data)))))

    for _ in range(8 * scale if 'bits' in kinds else 0):
        for shape in some([(), (1,), (5,), (3, 4), (2, 3, 4)]):
            key = a_key()
            out.write('bits %s %s = %s\n' % (key_text(key), shape_text(shape),
                                             u32_hex(call(jax.random.bits, key, shape=shape, dtype=jnp.uint32))))

    # Craftax's uniform draws: scalars, the noise's angles ((res + 1) x
    # (res + 1)), the map; and bounds that are not 0 and 1.
    bounds = [(0.0, 1.0), (0.0, 1.0), (-1.0, 1.0), (32.0, 127.0), (2.5, 2.5), (-3.0, 1e-3)]
    for _ in range(10 * scale if 'uniform' in kinds else 0):
        for shape in some([(), (7,), (5, 5), (9, 9)]):
            key = a_key()
            low, high = rng.choice(bounds + [(rng.uniform(-10, 10), rng.uniform(10, 20))])
            low, high = np.float32(low), np.float32(high)
            values = call(uniform, key, low, high, shape=shape)
            out.write('uniform %s %s %s %s = %s\n' % (key_text(key), shape_text(shape), f32_hex(low),
                                                      f32_hex(high), f32_hex(values)))
    for _ in range(scale if 'uniform' in kinds else 0):
        key = a_key()
        values = call(uniform, key, np.float32(0), np.float32(1), shape=(64, 64))
        out.write('uniform %s 64x64 %s %s = %s\n' % (key_text(key), f32_hex(0.0), f32_hex(1.0),
                                                     f32_hex(values)))

    ranges = [(0, 17), (0, 4), (0, 2), (2, 17), (-5, 5), (0, 1), (3, 3), (7, 2),
              (-2**31, 2**31 - 1), (0, 2**31 - 1), (-2**31, 0), (-2**31, 1)]
    for _ in range(10 * scale if 'randint' in kinds else 0):
        for shape in some([(), (10,), (3, 7)]):
            key = a_key()
            low, high = rng.choice(ranges + [tuple(sorted(rng.randrange(-2**31, 2**31)
                                                          for _ in range(2)))])
            values = call(randint, key, np.int32(low), np.int32(high), shape=shape)
            assert values.dtype == jnp.int32
            out.write('randint %s %s %d %d = %s\n' % (key_text(key), shape_text(shape), low, high,
                                                      ints(values)))

    for _ in range(8 * scale if 'choice' in kinds else 0):
        for shape, n in some([((), 4), ((), 15), ((1,), 4096), ((6,), 3), ((4, 4), 15)]):
            key = a_key()
            values = call(jax.random.choice, key, a=n, shape=shape)
            out.write('choice %s %s %d = %s\n' % (key_text(key), shape_text(shape), n,
                                                  ints(values)))

    # Probabilities given as float32 numbers, some zero; and as Craftax's
    # mobs make them: (|d| == max |d|) / sum |d| for a distance d.
    for _ in range(6 * scale if 'choice_p' in kinds else 0):
        for shape, n in some([((), 2), ((), 5), ((3,), 16), ((), 17), ((2,), 40), ((), 300)]):
            key = a_key()
            p = np.array([rng.random() if rng.random() < 0.8 else 0.0 for _ in range(n)],
                         np.float32)
            if not p.any():
                p[0] = 1.0
            values = call(p_choice, key, jnp.asarray(p), n=n, shape=shape)
            out.write('choice_p %s %s %d %s = %s\n' % (key_text(key), shape_text(shape), n,
                                                       f32_hex(p), ints(values)))
    for _ in range(4 * scale if 'choice_p' in kinds else 0):
        key = a_key()
        d = jnp.abs(jnp.array([rng.randrange(-9, 10), rng.randrange(-9, 10)]))
        if int(d.sum()) == 0:
            continue
        p = (d == d.max()) / d.sum()
        values = call(p_choice, key, p, n=2, shape=())
        out.write('choice_p %s - 2 %s = %s\n' % (key_text(key), f32_hex(p), ints(values)))

    # Cells of a map as Craftax draws them (the diamond, a spawning mob):
    # 4096 cells, three levels of tiles; and 5000, four.  Many draws from
    # one p: a sum that is not JAX's moves few of them.
    for _ in range(6 * scale if 'choice_mask' in kinds else 0):
        for shape, n, density in some([((), 4096, rng.random()), ((1,), 4096, 0.01),
                                       ((256,), 4096, 0.9), ((), 5000, 0.5), ((3,), 300, 0.3)]):
            key = a_key()
            mask = np.array([rng.random() < density for _ in range(n)])
            if not mask.any():
                mask[rng.randrange(n)] = True
            valid = jnp.asarray(mask).astype(jnp.float32)
            values = call(masked_choice, key, valid, n=n, shape=shape)
            bits = ''.join('1' if m else '0' for m in mask) + '0' * (-n % 4)
            hexmask = ''.join('%x' % int(bits[i:i + 4], 2) for i in range(0, len(bits), 4))
            out.write('choice_mask %s %s %d %s = %s\n' % (key_text(key), shape_text(shape), n,
                                                          hexmask, ints(values)))

    for _ in range(scale if 'cumsum' in kinds else 0):
        for n in some([1, 15, 16, 17, 31, 33, 255, 256, 257, 600]):
            p = np.array([rng.random() for _ in range(n)], np.float32)
            out.write('cumsum %d %s = %s\n' % (n, f32_hex(p), f32_hex(call(jnp.cumsum, jnp.asarray(p)))))

    for _ in range(4 * scale if 'bernoulli' in kinds else 0):
        for shape in some([(), (9,), (4, 4)]):
            key = a_key()
            p = np.float32(rng.choice([0.5, 0.1, 0.75, 0.0, 1.0, rng.random()]))
            values = call(jax.random.bernoulli, key, p, shape=shape)
            out.write('bernoulli %s %s %s = %s\n' % (key_text(key), shape_text(shape), f32_hex(p),
                                                     ints(values)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
