# tritonc — GNU make. `make` builds the library, the command and the examples;
# `make test` builds and runs every test; `make SAN=1 test` does it under ASan+UBSan;
# `make TSAN=1 test` runs the tests that use threads under ThreadSanitizer.
CC      ?= cc
PREFIX  ?= /usr/local
CSTD     = -std=c11 -D_GNU_SOURCE
WARN     = -Wall -Wextra -Wno-unused-parameter
OPT     ?= -O2 -g
ifeq ($(SAN),1)
  B      = build-san
  OPT    = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow
  SANLD  = -fsanitize=address,undefined,float-cast-overflow
else ifeq ($(TSAN),1)
  # ThreadSanitizer: `make TSAN=1 test` runs the tests that use threads (TESTS_ONLY)
  B      = build-tsan
  OPT    = -O1 -g -fno-omit-frame-pointer -fsanitize=thread
  SANLD  = -fsanitize=thread
  TESTS_ONLY = check_parallel check_order driver_inprocess_h200 api_threads embed_threads embed_fake_threads embed_fake_graph
  TEST_ENV   = TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp $$TSAN_OPTIONS"
else
  B      = build
endif
CFLAGS  += $(CSTD) $(WARN) $(OPT) -fPIC -Iinclude -Isrc
LDLIBS   = -lm -ldl -lpthread
OBJCOPY ?= objcopy

# The version is TRITONC_VERSION in include/tritonc.h, read here once. The shared library is
# libtritonc.so.$(VERSION) with the SONAME libtritonc.so.MAJOR (the ABI policy in tritonc.h).
VERSION := $(shell sed -n 's/.*define TRITONC_VERSION "\([0-9.]*\)".*/\1/p' include/tritonc.h)
ifeq ($(VERSION),)
  $(error no TRITONC_VERSION in include/tritonc.h)
endif
SONAME   = libtritonc.so.$(firstword $(subst ., ,$(VERSION)))
SOFILE   = libtritonc.so.$(VERSION)

SRCS     = $(wildcard src/*.c src/*/*.c)
OBJS     = $(patsubst src/%.c,$(B)/obj/%.o,$(SRCS))
HDRS     = $(wildcard include/*.h src/*/*.h)
TESTSRCS = $(wildcard tests/test_*.c)
TESTOBJS = $(patsubst tests/%.c,$(B)/tests/%.o,$(TESTSRCS))
EXAMPLES = $(patsubst examples/%.c,$(B)/examples/%,$(wildcard examples/*.c))
EXAMPLES += $(B)/examples/transformer

all: $(B)/libtritonc.a $(B)/libtritonc.so $(B)/$(SONAME) $(B)/libtritonc-internal.a $(B)/tritonc $(B)/tritonc.pc $(EXAMPLES) aot-example

# The ahead-of-time example: add_kernel compiled by $(B)/tritonc for cuda:80 and
# cuda:90a into a C pair, built into a program with no kernel source (examples/aot/Makefile).
aot-example: $(B)/tritonc $(B)/libtritonc.a
	$(MAKE) -C examples/aot B=$(abspath $(B)) CFLAGS="-std=c11 -Wall -Werror -O2 $(SANLD)"

# Only what tritonc.h marks TC_API is visible outside the library.
$(B)/obj/%.o: src/%.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fvisibility=hidden -c -o $@ $<

# The build id in the disk cache's key (src/runtime/cache.c): a hash of the library's sources,
# the compiler and its flags, so that no other build's compiled kernels are ever used.
BUILD_ID_IN = $(SRCS) $(HDRS) Makefile
%/gen/build_id.h: $(BUILD_ID_IN)
	@mkdir -p $(dir $@)
	@{ echo '$(CC) $(CFLAGS) $(FUZZ_FLAGS)'; $(CC) --version 2>/dev/null | sed -n 1p; cat $(BUILD_ID_IN); } | \
	    { sha256sum 2>/dev/null || cksum; } | \
	    sed -n 's/^\([0-9a-f]*\).*/#define TRITONC_BUILD_ID "\1"/p' > $@.tmp
	@mv $@.tmp $@
$(B)/obj/runtime/cache.o: $(B)/gen/build_id.h
$(B)/obj/runtime/cache.o: CFLAGS += -I$(B)/gen

# The public archive: one relocatable object whose hidden (internal) symbols are made local,
# so that only the tc_* API can clash with a program's names.
$(B)/libtritonc.a: $(OBJS)
	$(CC) -r -nostdlib -o $(B)/libtritonc-all.o $^
	$(OBJCOPY) --localize-hidden $(B)/libtritonc-all.o $(B)/libtritonc.o
	@rm -f $@ $(B)/libtritonc-all.o
	ar rcs $@ $(B)/libtritonc.o

# The objects as compiled, internal names global: for the test suite and the programs that
# call internal functions (scripts/gpu-check.sh, bench/gpu). Not installed.
$(B)/libtritonc-internal.a: $(OBJS)
	@rm -f $@
	ar rcs $@ $^

$(B)/$(SOFILE): $(OBJS)
	$(CC) -shared $(SANLD) -Wl,-soname,$(SONAME) -o $@ $^ $(LDLIBS)

$(B)/$(SONAME) $(B)/libtritonc.so: $(B)/$(SOFILE)
	ln -sf $(SOFILE) $@

# The command uses only the public API; each subcommand may live in its own tools/*.c.
TOOLSRCS = $(wildcard tools/*.c)
$(B)/tritonc: $(TOOLSRCS) $(wildcard tools/*.h) $(B)/libtritonc.a include/tritonc.h
	$(CC) $(CFLAGS) $(SANLD) -o $@ $(TOOLSRCS) $(B)/libtritonc.a $(LDLIBS)

$(B)/examples/%: examples/%.c $(B)/libtritonc.a include/tritonc.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DTRITONC_EXAMPLES_DIR='"$(CURDIR)/examples"' $(SANLD) -o $@ $< $(B)/libtritonc.a $(LDLIBS)

# The second example: a GPT-2-style transformer block from C (examples/transformer/).
$(B)/examples/transformer: examples/transformer/transformer.c $(B)/libtritonc.a include/tritonc.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DTRITONC_EXAMPLES_DIR='"$(CURDIR)/examples"' $(SANLD) -o $@ $< $(B)/libtritonc.a $(LDLIBS)

$(B)/tritonc.pc: Makefile include/tritonc.h
	@mkdir -p $(B)
	printf 'prefix=%s\nlibdir=$${prefix}/lib\nincludedir=$${prefix}/include\n\nName: tritonc\nDescription: Triton kernels, compiled and run from C\nVersion: %s\nLibs: -L$${libdir} -ltritonc\nLibs.private: -lm -ldl -lpthread\nCflags: -I$${includedir}\n' '$(PREFIX)' '$(VERSION)' > $@

# ---- tests -------------------------------------------------------------------------
# Each tests/test_*.c defines TEST(name) functions; the list is generated from them.
$(B)/tests/list.inc: $(TESTSRCS)
	@mkdir -p $(dir $@)
	grep -h '^TEST(' $(TESTSRCS) | sed 's/^TEST(\([A-Za-z0-9_]*\)).*/X(\1)/' > $@

$(B)/tests/%.o: tests/%.c $(wildcard tests/*.h) $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(B)/tests/main.o: tests/main.c tests/test.h $(B)/tests/list.inc
	$(CC) $(CFLAGS) -I$(B)/tests -c -o $@ $<

$(B)/run_tests: $(B)/tests/main.o $(TESTOBJS) $(B)/libtritonc-internal.a
	$(CC) $(CFLAGS) $(SANLD) -o $@ $^ $(LDLIBS)

# A fake libcuda.so.1 answering a handful of driver calls with H200-like values, so that
# driver discovery is tested without a GPU. Variants via FAKE_CUDA_MODE at run time.
$(B)/fake/libcuda.so.1: tests/fake_libcuda.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -g -fPIC -shared -o $@ $<

test: all $(B)/run_tests $(B)/fake/libcuda.so.1
	sh scripts/check-layers.sh $(B)
	TRITONC_BUILD=$(B) CC="$(CC)" $(TEST_ENV) ./$(B)/run_tests $(TESTS_ONLY)

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(B)/libtritonc.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/$(SOFILE) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(SOFILE) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SOFILE) $(DESTDIR)$(PREFIX)/lib/libtritonc.so
	install -m 644 include/tritonc.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 $(B)/tritonc $(DESTDIR)$(PREFIX)/bin/
	sed 's|^prefix=.*|prefix=$(PREFIX)|' $(B)/tritonc.pc > $(DESTDIR)$(PREFIX)/lib/pkgconfig/tritonc.pc

# The chapter's standalone example, as the README's first command runs it.
example: all
	TRITON_INTERPRET=1 ./$(B)/examples/04_standalone_complete

clean:
	rm -rf build build-san build-tsan build-fuzz

.PHONY: all test install example clean aot-example

# ---- fuzzing -----------------------------------------------------------------------
# `make fuzz` builds the libFuzzer targets into build-fuzz/ and runs each one for
# FUZZ_SECONDS (fuzz/run.sh; artifacts land in build-fuzz/artifacts/<target>/ and the
# run fails if any target finds something). `make fuzz-build` only builds them.
# Needs clang with libFuzzer's runtime (Debian: apt-get install -y clang libclang-rt-14-dev).
# Saved failing inputs live in fuzz/regressions/<target>/ and are replayed by `make test`
# (tests/test_fuzz_regress.c), which needs no libFuzzer.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= fuzz_parse fuzz_trace fuzz_args $(if $(and $(wildcard src/runtime/cache.c),$(wildcard fuzz/fuzz_cache.c)),fuzz_cache)
FZ           = build-fuzz
FUZZ_FLAGS   = $(CSTD) -O1 -g -fno-omit-frame-pointer -fPIC -Iinclude -Isrc -Itools \
               -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow
FZ_OBJS      = $(patsubst src/%.c,$(FZ)/obj/%.o,$(SRCS))
FZ_TOOLOBJS  = $(patsubst tools/%.c,$(FZ)/obj/tools/%.o,$(filter-out tools/tritonc.c,$(TOOLSRCS)))

$(FZ)/obj/%.o: src/%.c $(HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<
$(FZ)/obj/runtime/cache.o: $(FZ)/gen/build_id.h
$(FZ)/obj/runtime/cache.o: FUZZ_FLAGS += -I$(FZ)/gen

$(FZ)/obj/tools/%.o: tools/%.c $(wildcard tools/*.h) include/tritonc.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FZ)/libtritonc-fuzz.a: $(FZ_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(FZ)/fuzz_args: fuzz/fuzz_args.c tools/tritonc.c $(wildcard tools/*.h) $(FZ_TOOLOBJS) $(FZ)/libtritonc-fuzz.a $(HDRS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FZ_TOOLOBJS) $(FZ)/libtritonc-fuzz.a $(LDLIBS)

$(FZ)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_one.h $(FZ)/libtritonc-fuzz.a $(HDRS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FZ)/libtritonc-fuzz.a $(LDLIBS)

fuzz-build: $(addprefix $(FZ)/,$(FUZZ_TARGETS))

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_DIR=$(FZ) sh fuzz/run.sh $(FUZZ_TARGETS)

# Replays only the saved failing inputs (also part of `make test`).
fuzz-regress: $(B)/run_tests $(B)/tritonc
	TRITONC_BUILD=$(B) ./$(B)/run_tests fuzz_regress

.PHONY: fuzz fuzz-build fuzz-regress
$(B)/tests/test_fuzz_regress.o: fuzz/fuzz_one.h
