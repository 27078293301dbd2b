# The Crafter toolkit.  Run ./configure first; it writes config.mk.
-include config.mk

CC ?= cc
PREFIX ?= /usr/local
OPTFLAGS ?= -O2 -g
# Results must match the reference bit for bit: no contraction of a*b+c
# into fused multiply-adds, no fast-math.
EXACTFLAGS = -ffp-contract=off -fno-fast-math
WARNFLAGS = -Wall -Wextra -Werror
CFLAGS_ALL = -std=c11 -D_POSIX_C_SOURCE=200809L -DCRAFTER_VERSION='"$(VERSION)"' \
	$(if $(FASTGEN_X86),-DCRAFTER_FASTGEN_X86) \
	$(OPTFLAGS) $(EXACTFLAGS) $(WARNFLAGS) -Iinclude -Ilib $(EXTRA_CFLAGS) $(CFLAGS)
# STATIC_DEPS=yes links libyaml, libpng and zlib statically (their .a files,
# which Debian's -dev packages carry), so that the programs need only the C
# library at run time: the Python wheel's build uses it.
DEP_LIBS = -lyaml -lpng -lz
comma := ,
LIBS_ALL = $(if $(filter yes,$(STATIC_DEPS)),-Wl$(comma)-Bstatic $(DEP_LIBS) -Wl$(comma)-Bdynamic,$(DEP_LIBS)) \
	-lm -lpthread $(EXTRA_LIBS) $(LIBS)
VERSION = 0.1.0

# The modules of the library, layer by layer from the bottom.
LIB_MODULES = \
	base/errors base/params base/ids base/outfile base/yamlfile base/json base/npz base/npmath \
	base/terminal base/cli base/gnuplot base/memory base/pool \
	kernels/noise kernels/rng kernels/jaxrng kernels/kernels \
	game/world game/worldgen game/cc_worldgen game/cx_worldgen game/cx_words game/cx_game game/cc_game game/game game/config game/tasks game/env game/cc_env game/cc_words game/cx_env game/games \
	view/render view/cc_render view/cx_render view/cx_text view/cx_pixels view/textures view/obskind view/balrog view/video view/builtin_textures \
	run/episode run/batch run/state run/traj run/traj_format run/traj_writer run/traj_reader \
	run/recording run/proto run/worldfile run/levels run/run run/envopts run/jgame run/jstate run/jlevels run/jbatch run/cc_state \
	tools/input tools/session tools/jsession tools/dataset tools/score tools/score_report tools/score_plot tools/score_main \
	tools/gen tools/bench tools/agents tools/agents_moves tools/agents_oracle tools/play \
	tools/play_keys tools/play_screen tools/play_game tools/play_replay tools/jplay
# The vector kernels (world generation, random draws, shading, Craftax's
# worlds), once per instruction set (kernels.h).
FASTGEN_OBJECTS = lib/kernels/fastgen-base.o lib/kernels/shade-base.o lib/kernels/rng_kernels-base.o \
	lib/kernels/cc_kernels-base.o \
	$(if $(FASTGEN_X86),lib/kernels/fastgen-v3.o lib/kernels/fastgen-v4.o lib/kernels/shade-v3.o \
	lib/kernels/shade-v4.o lib/kernels/rng_kernels-v3.o lib/kernels/rng_kernels-v4.o \
	lib/kernels/cc_kernels-v3.o lib/kernels/cc_kernels-v4.o)
LIB_OBJECTS = $(LIB_MODULES:%=lib/%.o) $(FASTGEN_OBJECTS)
LIB_HEADERS = $(wildcard lib/*/*.h include/crafter/*.h)
# What a C user includes: include/crafter/crafter.h (handles, functions and
# the few plain structs a caller fills) and the ids it includes.  The
# headers of lib/ are the library's own and are not installed.
PUBLIC_HEADERS = include/crafter/crafter.h include/crafter/ids.h
PROGRAMS = bin/crafter-step bin/crafter-score bin/crafter-bench bin/crafter-gen bin/crafter-dataset bin/crafter-play
UNIT_TESTS = tests/unit/test-objects tests/unit/test-tasks tests/unit/test-rng tests/unit/test-noise tests/unit/test-rules \
	tests/unit/test-json tests/unit/test-cli tests/unit/test-observe tests/unit/test-batch tests/unit/test-render tests/unit/test-score \
	tests/unit/test-traj tests/unit/test-config tests/unit/test-play tests/unit/test-worldgen \
	tests/unit/test-video tests/unit/test-worldgen-shrunk tests/unit/test-task-suite tests/unit/test-oracle \
	tests/unit/test-levels tests/unit/test-behaviours tests/unit/test-players tests/unit/test-state \
	tests/unit/test-obskind tests/unit/test-jaxrng tests/unit/test-craftax-worldgen \
	tests/unit/test-cc-render tests/unit/test-craftax-episodes tests/unit/test-games tests/unit/test-cc-state \
	tests/unit/test-cx-worldgen tests/unit/test-balrog tests/unit/test-cx-game \
	tests/unit/test-cx-words tests/unit/test-cx-text tests/unit/test-cx-render tests/unit/test-cx-pixels
TEST_TOOLS = tests/unit/bench-cx tests/golden-compare tests/agent-actions tests/api-trajectory tests/reference/npmath.so
# A fuzz target per reader (tests/fuzz): run over its seed corpus by
# tests/fuzz.t, and by libFuzzer under clang with make fuzz.  The -repair
# targets rewrite the checksums of their input first (tests/fuzz/repair.h);
# step-text and step-binary drive crafter-step's session, world-play
# plays a world file, state loads saved states as they are and with their
# checksum made right, cc-state the same with Craftax-Classic's, cc-levels
# reads Craftax-Classic's level files, cx-words Craftax's state as words
# patched into a generated one.
FUZZ_TARGETS = traj traj-repair config world world-play score tasks levels levels-repair \
	step-text step-binary state cc-state cc-levels cx-words jstep
FUZZ_DRIVERS = $(FUZZ_TARGETS:%=tests/fuzz/fuzz-%)
FUZZ_SOURCES = $(wildcard tests/fuzz/*.h tests/fuzz/fuzz-*.c)
FUZZ_SECONDS ?= 30

GOLDEN_DIR ?= ../shared/golden
export GOLDEN_DIR

.PHONY: all check check-asan check-reference check-craftax-reference reference-env craftax-env clients-env balrog-env fuzz fuzz-targets golden install uninstall \
	tasks clean distclean

all: $(PROGRAMS)

lib/%.o: lib/%.c $(LIB_HEADERS)
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

# Inexact by design (see worldgen.c): contraction allowed.
lib/kernels/fastgen-base.o: lib/kernels/fastgen.c $(LIB_HEADERS)
	$(CC) $(CFLAGS_ALL) -ffp-contract=fast -Wno-psabi -DFASTGEN_SUFFIX=base -c -o $@ $<
lib/kernels/fastgen-v3.o: lib/kernels/fastgen.c $(LIB_HEADERS)
	$(CC) $(CFLAGS_ALL) -ffp-contract=fast -Wno-psabi -march=x86-64-v3 -DFASTGEN_SUFFIX=v3 -c -o $@ $<
lib/kernels/fastgen-v4.o: lib/kernels/fastgen.c $(LIB_HEADERS)
	$(CC) $(CFLAGS_ALL) -ffp-contract=fast -Wno-psabi -march=x86-64-v4 -DFASTGEN_SUFFIX=v4 -c -o $@ $<
# Exact, as every other module: no contraction.
EXACT_KERNELS = kernels/rng_kernels kernels/shade kernels/cc_kernels
$(EXACT_KERNELS:%=lib/%-base.o): lib/%-base.o: lib/%.c $(LIB_HEADERS)
	$(CC) $(CFLAGS_ALL) -Wno-psabi -DFASTGEN_SUFFIX=base -c -o $@ $<
$(EXACT_KERNELS:%=lib/%-v3.o): lib/%-v3.o: lib/%.c $(LIB_HEADERS)
	$(CC) $(CFLAGS_ALL) -Wno-psabi -march=x86-64-v3 -DFASTGEN_SUFFIX=v3 -c -o $@ $<
$(EXACT_KERNELS:%=lib/%-v4.o): lib/%-v4.o: lib/%.c $(LIB_HEADERS)
	$(CC) $(CFLAGS_ALL) -Wno-psabi -march=x86-64-v4 -DFASTGEN_SUFFIX=v4 -c -o $@ $<

lib/view/builtin_textures.c: data/embed-textures.sh $(wildcard data/textures/*.png)
	sh data/embed-textures.sh data/textures > $@.tmp && mv $@.tmp $@

lib/libcrafter.a: $(LIB_OBJECTS)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJECTS)

bin/%: bin/%.c lib/libcrafter.a
	$(CC) $(CFLAGS_ALL) -o $@ $< lib/libcrafter.a $(LDFLAGS) $(LIBS_ALL)

tests/unit/%: tests/unit/%.c $(wildcard tests/unit/*.h) lib/libcrafter.a
	$(CC) $(CFLAGS_ALL) -Itests/unit -o $@ $< lib/libcrafter.a $(LDFLAGS) $(LIBS_ALL)

tests/fuzz/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/driver.c $(FUZZ_SOURCES) lib/libcrafter.a
	$(CC) $(CFLAGS_ALL) -Itests/fuzz -o $@ $< tests/fuzz/driver.c lib/libcrafter.a $(LDFLAGS) $(LIBS_ALL)

tests/fuzz/libfuzzer-%: tests/fuzz/fuzz-%.c $(FUZZ_SOURCES) lib/libcrafter.a
	$(CC) $(CFLAGS_ALL) -fsanitize=fuzzer -Itests/fuzz -o $@ $< lib/libcrafter.a $(LDFLAGS) $(LIBS_ALL)

# test-worldgen-shrunk: the worldgen test against a portable fast generator
# whose error bound is 100 times too small, which it must catch.
tests/unit/fastgen-shrunk.o: lib/kernels/fastgen.c $(LIB_HEADERS)
	$(CC) $(CFLAGS_ALL) -ffp-contract=fast -Wno-psabi -DFASTGEN_SUFFIX=base \
		-DCRAFTER_NOISE_FIELD_ERROR=1.5e-6 -c -o $@ $<
tests/unit/test-worldgen-shrunk: tests/unit/test-worldgen.c tests/unit/tap.h \
		tests/unit/fastgen-shrunk.o lib/libcrafter.a
	$(CC) $(CFLAGS_ALL) -DSHRUNK_BOUND -Itests/unit -o $@ $< tests/unit/fastgen-shrunk.o \
		lib/libcrafter.a $(LDFLAGS) $(LIBS_ALL)

# test-traj watches the library's allocations (how much a crafted file
# makes it ask for).
tests/unit/test-traj: LDFLAGS += -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc

tests/golden-compare: tests/golden-compare.c lib/libcrafter.a
	$(CC) $(CFLAGS_ALL) -o $@ $< lib/libcrafter.a $(LDFLAGS) $(LIBS_ALL)

tests/agent-actions: tests/agent-actions.c lib/libcrafter.a
	$(CC) $(CFLAGS_ALL) -o $@ $< lib/libcrafter.a $(LDFLAGS) $(LIBS_ALL)

# Built with the public headers alone on the include path, as a C user's
# program is (tests/api.t).
tests/api-trajectory: tests/api-trajectory.c $(PUBLIC_HEADERS) lib/libcrafter.a
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L $(OPTFLAGS) $(WARNFLAGS) -Iinclude $(EXTRA_CFLAGS) \
		$(CFLAGS) -o $@ $< lib/libcrafter.a $(LDFLAGS) $(LIBS_ALL)

# The engine's numpy cos for the reference, on machines whose numpy computes
# cos otherwise (tests/reference/npcos.py).  Loaded into Python: no
# sanitizers, whatever the suite is built with.
tests/reference/npmath.so: lib/base/npmath.c lib/base/npmath.h
	$(CC) -std=c11 -O2 -fPIC -shared $(EXACTFLAGS) -Ilib -o $@ lib/base/npmath.c -lm

check: $(PROGRAMS) $(UNIT_TESTS) $(TEST_TOOLS) $(FUZZ_DRIVERS)
	sh tests/run-all

# The whole suite under AddressSanitizer (leak checking on, whatever
# ASAN_OPTIONS says outside) and UndefinedBehaviorSanitizer, built in a
# separate tree so the normal build is left alone.
check-asan:
	rm -rf build-asan && mkdir -p build-asan
	tar cf - --exclude=./build-asan --exclude=./build-fuzz --exclude=./build-reference --exclude='*.o' --exclude='*.a' . | (cd build-asan && tar xf -)
	$(MAKE) -C build-asan clean-objects
	ASAN_OPTIONS=detect_leaks=1 $(MAKE) -C build-asan check OPTFLAGS='-O1 -g -fno-omit-frame-pointer' \
		EXTRA_CFLAGS='-fsanitize=address,undefined -fno-sanitize-recover=all' \
		EXTRA_LIBS='-fsanitize=address,undefined' \
		GOLDEN_DIR='$(abspath $(GOLDEN_DIR))' REFERENCE_ENV='$(abspath $(REFERENCE_ENV))' \
		CRAFTAX_ENV='$(abspath $(CRAFTAX_ENV))' CLIENTS_ENV='$(abspath $(CLIENTS_ENV))'

# Each reader under libFuzzer for FUZZ_SECONDS, built with clang, address
# and undefined-behaviour sanitizers, in a separate tree.  New inputs go to
# build-fuzz/corpus-TARGET; a failing input to build-fuzz/crash-TARGET-*.
# Every target runs, whatever the others found; FUZZ_TARGETS=... picks some.
fuzz:
	@command -v clang >/dev/null || { echo "make fuzz: clang is needed (Debian packages clang and libclang-rt-14-dev)" >&2; exit 1; }
	rm -rf build-fuzz && mkdir -p build-fuzz/tree
	tar cf - --exclude=./build-asan --exclude=./build-fuzz --exclude=./build-reference --exclude='*.o' --exclude='*.a' . | (cd build-fuzz/tree && tar xf -)
	$(MAKE) -C build-fuzz/tree clean-objects
	$(MAKE) -C build-fuzz/tree fuzz-targets CC=clang OPTFLAGS='-O1 -g -fno-omit-frame-pointer' \
		EXTRA_CFLAGS='-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all' \
		EXTRA_LIBS='-fsanitize=address,undefined'
	failed=; for target in $(FUZZ_TARGETS); do \
		mkdir -p build-fuzz/corpus-$$target && \
		echo "fuzz-$$target: $(FUZZ_SECONDS) s" && \
		if UBSAN_OPTIONS=print_stacktrace=1 build-fuzz/tree/tests/fuzz/libfuzzer-$$target \
			-max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
			-artifact_prefix=build-fuzz/crash-$$target- \
			build-fuzz/corpus-$$target tests/fuzz/corpus/$$target 2>build-fuzz/$$target.log; then \
			grep -h 'stat::number_of_executed_units' build-fuzz/$$target.log; \
		else \
			tail -n 40 build-fuzz/$$target.log; failed="$$failed $$target"; \
		fi; \
	done; \
	if [ -n "$$failed" ]; then \
		echo "make fuzz: failed:$$failed (logs build-fuzz/TARGET.log, inputs build-fuzz/crash-*)" >&2; \
		exit 1; \
	fi

fuzz-targets: $(FUZZ_TARGETS:%=tests/fuzz/libfuzzer-%)

# The reference, crafter 1.8.3 from PyPI with its pinned dependencies, in a
# virtual environment of its own (tests/reference/requirements.txt).
PYTHON ?= python3
REFERENCE_ENV ?= build-reference/venv
# make check-reference: episodes (N) or seconds (Ns) of differential
# fuzzing against the reference; a difference stops it and leaves a
# reproducer in build-reference/.
REFERENCE_BUDGET ?= 200
REFERENCE_FLAGS ?=

# $(call make_venv,TARGET-NAME,DIR,REQUIREMENTS,PIP-FLAGS): a virtual
# environment made afresh from pinned requirements, marked .installed.
define make_venv
	@command -v $(PYTHON) >/dev/null || { echo "make $(1): $(PYTHON) is needed" >&2; exit 1; }
	rm -rf $(2)
	$(PYTHON) -m venv $(2)
	$(2)/bin/pip install --quiet --disable-pip-version-check $(4) -r $(3)
	$(if $(5),$(2)/bin/pip install --quiet --disable-pip-version-check --no-deps -r $(5))
	touch $(2)/.installed
endef

reference-env: $(REFERENCE_ENV)/.installed

$(REFERENCE_ENV)/.installed: tests/reference/requirements.txt tests/reference/requirements-nodeps.txt
	$(call make_venv,reference-env,$(REFERENCE_ENV),$<,,tests/reference/requirements-nodeps.txt)

# Craftax-Classic 1.6.1 and JAX, for the symbolic observation's test
# (tests/symbolic.t, tests/reference/symbolic.py).
CRAFTAX_ENV ?= build-reference/craftax-venv

craftax-env: $(CRAFTAX_ENV)/.installed

$(CRAFTAX_ENV)/.installed: tests/reference/requirements-craftax.txt
	$(call make_venv,craftax-env,$(CRAFTAX_ENV),$<,--no-deps)

# The clients the Python package is tested inside (tests/python.t runs its
# tests there too): Stable-Baselines3 and PyTorch (CPU), Gymnasium,
# PettingZoo, gym 0.23, Ray with RLlib, Minari
# (tests/reference/requirements-clients.txt).
CLIENTS_ENV ?= build-reference/clients-venv

clients-env: $(CLIENTS_ENV)/.installed

$(CLIENTS_ENV)/.installed: tests/reference/requirements-clients.txt \
		tests/reference/requirements-nodeps.txt
	$(call make_venv,clients-env,$(CLIENTS_ENV),$<,,tests/reference/requirements-nodeps.txt)

# BALROG's Crafter environment over crafter 1.8.3 and over the Python
# package (python/tests/test_balrog.py): the reference's pins with gym 0.23
# and SciPy, which BALROG's files import
# (tests/reference/requirements-balrog.txt).  SmartPlay's Crafter
# environment over its own copy of crafter and over the package
# (python/tests/test_smartplay.py) plays in it too.
BALROG_ENV ?= build-reference/balrog-venv

balrog-env: $(BALROG_ENV)/.installed

$(BALROG_ENV)/.installed: tests/reference/requirements-balrog.txt
	$(call make_venv,balrog-env,$(BALROG_ENV),$<)

# make check-craftax-reference: Craftax-Classic against the pinned JAX
# (make craftax-env), on seeds drawn afresh every run: CRAFTAX_SEEDS
# worlds and first observations, CRAFTAX_SEEDS / 10 episodes of
# CRAFTAX_STEPS random steps, compared field by field; a difference is
# named (seed, step, field, index).
CRAFTAX_SEEDS ?= 1000
CRAFTAX_STEPS ?= 1000
check-craftax-reference: $(PROGRAMS) $(UNIT_TESTS) craftax-env
	CRAFTAX_FULL_LIVE=1 \
	CRAFTAX_WORLDS=$(CRAFTAX_SEEDS) CRAFTAX_OBS=$(CRAFTAX_SEEDS) CRAFTAX_CX_WORLDS=$(CRAFTAX_SEEDS) \
	CRAFTAX_EPISODES=$$(( $(CRAFTAX_SEEDS) / 10 )) CRAFTAX_EPISODE_STEPS=$(CRAFTAX_STEPS) \
	  prove tests/jaxrng.t tests/craftax-worlds.t tests/craftax-obs.t tests/craftax-pixels.t \
	  tests/craftax-episodes.t tests/cx-worlds.t tests/cx-steps.t tests/cx-obs.t tests/cx-pixels.t \
	  tests/cx-state.t


check-reference: $(PROGRAMS) $(TEST_TOOLS) reference-env
	$(REFERENCE_ENV)/bin/python tests/reference/fuzz.py --budget $(REFERENCE_BUDGET) \
		--out build-reference $(REFERENCE_FLAGS)

golden: tests/golden-compare
	tests/golden-compare $(GOLDEN_DIR)/*.jsonl.gz

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man5 $(DESTDIR)$(PREFIX)/share/man/man7 \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/include/crafter $(DESTDIR)$(PREFIX)/share/crafter/examples
	cp $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin/
	cp lib/libcrafter.a $(DESTDIR)$(PREFIX)/lib/
	cp $(PUBLIC_HEADERS) $(DESTDIR)$(PREFIX)/include/crafter/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' lib/crafter.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/crafter.pc
	cp man/man1/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	cp man/man5/*.5 $(DESTDIR)$(PREFIX)/share/man/man5/
	cp man/man7/*.7 $(DESTDIR)$(PREFIX)/share/man/man7/
	cp data/crafter.yaml $(DESTDIR)$(PREFIX)/share/crafter/
	cp data/tasks/crafter-tasks.yaml $(DESTDIR)$(PREFIX)/share/crafter/
	cp -R examples/* $(DESTDIR)$(PREFIX)/share/crafter/examples/

uninstall:
	rm -f $(PROGRAMS:bin/%=$(DESTDIR)$(PREFIX)/bin/%) $(DESTDIR)$(PREFIX)/lib/libcrafter.a \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig/crafter.pc
	rm -rf $(DESTDIR)$(PREFIX)/include/crafter
	rm -f $(DESTDIR)$(PREFIX)/share/man/man1/crafter-*.1 $(DESTDIR)$(PREFIX)/share/man/man5/crafter-*.5 \
		$(DESTDIR)$(PREFIX)/share/man/man7/crafter.7
	rm -rf $(DESTDIR)$(PREFIX)/share/crafter

# The instruction-task suite, assembled by its generator from the goal list
# and the sentences of data/tasks/wordings (data/tasks/README).
tasks:
	sh data/tasks/generate.sh > data/tasks/crafter-tasks.yaml.tmp || \
		{ rm -f data/tasks/crafter-tasks.yaml.tmp; exit 1; }
	mv data/tasks/crafter-tasks.yaml.tmp data/tasks/crafter-tasks.yaml

clean-objects:
	rm -f lib/*/*.o lib/libcrafter.a lib/view/builtin_textures.c $(PROGRAMS) $(UNIT_TESTS) $(TEST_TOOLS) \
		tests/unit/fastgen-shrunk.o \
		$(FUZZ_DRIVERS) $(FUZZ_TARGETS:%=tests/fuzz/libfuzzer-%)

clean: clean-objects
	rm -rf build-asan build-fuzz

# Also the reference's virtual environment, which takes a download to remake.
distclean: clean
	rm -f config.mk
	rm -rf build-reference
