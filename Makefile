# laplace - build, run and test (GNU Make).
#
#   make            build ./laplace (with CUDA when nvcc is found, else CPU only), one
#                   job a core unless -j is given
#   make run        solve config/default-gpu.ini (a GPU is visible) or config/default.ini
#                   and print the report
#   make test       the tests that need no GPU (GPU tests report themselves skipped, and
#                   tests/run_unit_tests.sh names them before Criterion's summary); a
#                   pass leaves nothing in tests/out, a failed test's outputs stay
#   make test-gpu   the GPU suite, then the GPU code under compute-sanitizer (fails without
#                   a GPU); logs under results/
#   make bench      ./laplace --bench: ceilings, the standard matrix and the lattice sweep
#                   -> results/bench-*.csv and results/bench-*-sweep.csv
#   make bench-sweep  the ceilings and the lattice sweep only (LAPLACE_BENCH_ONLY=sweep)
#   make plots      PNGs of the newest results/bench-*.csv (or CSV=path) and of its
#                   sweep, next to them; HISTORY=h.csv: the plot of a --history file;
#                   LAB=lab.csv: the lab sweep's (--sides) iterations and time, log-log
#   make format     clang-format every source file
#   make fuzz       libFuzzer targets of the INI, command-line and expression layers, each
#                   run FUZZ_SECONDS (default 30) under ASan+UBSan (clang-14; tests/fuzz/fuzz.mk)
#   make install    PREFIX=/usr/local (spaces allowed): ./laplace, laplace-plot, the
#                   presets, the plot scripts and a man page, listed in
#                   share/laplace/install-manifest (make uninstall removes exactly those,
#                   and the folders it made that are left empty)
#   make deps       install the Debian packages the build and tests need
#   make clean
#
# Variables: CUDA_HOME (default /usr/local/cuda), GPU_ARCH (default 90: sm_90 + PTX),
# SANITIZE=1 builds everything with AddressSanitizer and UBSan (CPU build only), NO_MPI=1
# without MPI. The options a build was made with are kept in BUILD/options: changing
# them (CUDA found or not, MPI, SANITIZE, GPU_ARCH) rebuilds everything.

CUDA_HOME ?= /usr/local/cuda

# Parallel by default, one job a core (a serial build was ~100 s of a first make run
# on 2 cores); a -j given on the command line wins, a make run by make shares its
# parent's jobs, and make clean stays serial, so that `make clean all` does not build
# while it deletes.
ifeq ($(filter -j% --jobserver%,$(MAKEFLAGS))$(filter clean,$(MAKECMDGOALS))$(filter-out 0,$(MAKELEVEL)),)
  MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
GPU_ARCH ?= 90
NVCC ?= $(firstword $(wildcard $(CUDA_HOME)/bin/nvcc) $(shell command -v nvcc 2>/dev/null))

CC := gcc
BUILD := build
CFLAGS := -std=c11 -D_DEFAULT_SOURCE -I. -O3 -g -fopenmp -ffp-contract=off \
          -Wall -Wextra -Werror -MMD -MP
# inih and matheval linked statically (expression.c gives matheval's scanner its yywrap),
# so the binary runs where they are not installed; PACKAGE_LIBS='-linih -lmatheval'
# where a distribution ships only the shared ones.
PACKAGE_LIBS ?= -l:libinih.a -l:libmatheval.a
LDLIBS := $(PACKAGE_LIBS) -lm

# OpenMP linked statically too, so the binary needs nothing beyond libc on a GPU machine.
LIBGOMP_A := $(shell $(CC) -print-file-name=libgomp.a)
ifneq ($(wildcard $(LIBGOMP_A)),)
  LDFLAGS_OMP := $(LIBGOMP_A) -lpthread
else
  LDFLAGS_OMP := -fopenmp
endif

ifeq ($(SANITIZE),1)
  BUILD := build-sanitize
  NVCC :=
  NO_CUDA_WHY := SANITIZE=1 builds without CUDA
  CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
  LDFLAGS_OMP := -fopenmp -fsanitize=address,undefined
endif

# The sources: the lecture's files at the top, the rest in one folder per concern.
# Files whose name holds "cuda" need the CUDA runtime and are built only with nvcc.
FOLDERS := run solve settings plan devices mpi outputs problem watch support bench
SOURCES := $(filter-out main.c,$(wildcard *.c $(FOLDERS:%=%/*.c)))
CUDA_SOURCES := $(foreach s,$(SOURCES),$(if $(findstring cuda,$(notdir $(s))),$(s)))
# The kernels: laplace_kernels.cu at the top, the rest in kernels/.
KERNEL_SOURCES := $(wildcard *.cu kernels/*.cu)
CORE := $(basename $(filter-out $(CUDA_SOURCES),$(SOURCES)))
OBJS := $(CORE:%=$(BUILD)/%.o)

ifneq ($(NVCC),)
  CFLAGS += -DHAVE_CUDA -I$(CUDA_HOME)/include
  NVCCFLAGS := -O3 -std=c++17 -I. -DHAVE_CUDA -fmad=false \
               -gencode arch=compute_$(GPU_ARCH),code=sm_$(GPU_ARCH) \
               -gencode arch=compute_$(GPU_ARCH),code=compute_$(GPU_ARCH) \
               -Xcompiler -Wall,-Wextra,-Werror
  OBJS += $(CUDA_SOURCES:%.c=$(BUILD)/%.o) $(KERNEL_SOURCES:%.cu=$(BUILD)/%.o)
  PTXAS_REPORTS := $(KERNEL_SOURCES:%.cu=$(BUILD)/%.ptxas)
  LDLIBS += -L$(CUDA_HOME)/lib64 -lcudart_static -lrt -ldl -lpthread -static-libstdc++ -lstdc++
  BUILD_KIND := with CUDA ($(NVCC), sm_$(GPU_ARCH))
else
  BUILD_KIND := CPU only ($(or $(NO_CUDA_WHY),no nvcc found; set CUDA_HOME to build the GPU backend))
endif

# MPI (ranks.c) when Open MPI's mpicc is found: its flags, the compiler stays gcc.
# NO_MPI=1 builds without it. The binary runs without mpirun as before. The sanitizer
# build has none: Open MPI's own allocations at exit read as leaks there.
MPICC := $(if $(NO_MPI)$(filter 1,$(SANITIZE)),,$(shell command -v mpicc 2>/dev/null))
ifneq ($(MPICC),)
  CFLAGS_MPI := -DHAVE_MPI $(shell $(MPICC) --showme:compile)
  LDLIBS += $(shell $(MPICC) --showme:link)
  BUILD_KIND := $(BUILD_KIND), with MPI ($(MPICC))
else
  NO_MPI_WHY := $(if $(NO_MPI),NO_MPI=1,$(if $(filter 1,$(SANITIZE)),SANITIZE=1 builds \
                without MPI,no mpicc found: make deps installs Open MPI))
  BUILD_KIND := $(BUILD_KIND), without MPI ($(NO_MPI_WHY))
endif
$(BUILD)/mpi/ranks.o: CFLAGS += $(CFLAGS_MPI)

# The build's options, recorded in $(BUILD)/options and rewritten only when they
# change, which every object depends on: `make NO_MPI=1` then `make` rebuilds with
# MPI, as a change of CUDA, GPU_ARCH or SANITIZE rebuilds too (as git's GIT-CFLAGS).
BUILD_OPTIONS := cc=$(CC) cuda=$(or $(NVCC),off)$(if $(NVCC), sm_$(GPU_ARCH)) \
                 mpi=$(or $(MPICC),off) sanitize=$(if $(filter 1,$(SANITIZE)),on,off)

TEST_SOURCES := $(wildcard tests/test_*.c)
TEST_OBJS := $(TEST_SOURCES:tests/%.c=$(BUILD)/tests/%.o)

.PHONY: all laplace run test test-gpu bench bench-sweep plots format clean deps \
        check-build-deps check-test-deps install uninstall FORCE

all: laplace

# ./laplace is a copy of the build directory's binary, refreshed whenever they differ,
# so that after `make test SANITIZE=1` a plain `make` brings the plain build back.
laplace: $(BUILD)/laplace
	@cmp -s $< $@ || { cp $< $@ && echo "built ./laplace $(BUILD_KIND)"; }

$(BUILD)/laplace: $(BUILD)/main.o $(OBJS)
	$(CC) $(filter-out -fopenmp,$(CFLAGS)) -o $@ $^ $(LDFLAGS_OMP) $(LDLIBS)

$(BUILD)/%.o: %.c $(BUILD)/options | $(BUILD) check-build-deps
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

# Every .cu with nvcc, which writes the headers it read into a dependency file, as
# gcc's -MMD does, and ptxas's report of each kernel (registers, spills) into
# $(BUILD)/FILE.ptxas, which tests/test_kernel_registers.c reads; a failed compile
# prints it whole, a good one every line that is not the report's (a warning).
$(BUILD)/%.o $(BUILD)/%.ptxas: %.cu $(BUILD)/options | $(BUILD)
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -Xptxas -v -MMD -MP -MF $(BUILD)/$*.d -c -o $(BUILD)/$*.o $< \
	    2> $(BUILD)/$*.ptxas || { cat $(BUILD)/$*.ptxas >&2; exit 1; }
	@grep -v -e '^ptxas info' -e '^    [0-9]* bytes stack frame' $(BUILD)/$*.ptxas >&2 || true

$(BUILD)/tests/%.o: tests/%.c $(BUILD)/options | $(BUILD) check-test-deps
	@mkdir -p $(BUILD)/tests
	$(CC) $(CFLAGS) -I. -Wno-unused-parameter -c -o $@ $<

$(BUILD)/unit_tests: $(TEST_OBJS) $(OBJS) | $(PTXAS_REPORTS)
	$(CC) $(filter-out -fopenmp,$(CFLAGS)) -o $@ $^ $(LDFLAGS_OMP) $(LDLIBS) -lcriterion

$(BUILD):
	@mkdir -p $(BUILD)

$(BUILD)/options: FORCE | $(BUILD)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(BUILD_OPTIONS)' ]; then \
	    [ ! -f $@ ] || echo "laplace: the build options changed (were: $$(cat $@)): rebuilding"; \
	    echo "laplace: building $(BUILD_KIND)"; \
	    echo '$(BUILD_OPTIONS)' > $@; fi
FORCE:

# Installs the Debian packages the build and the tests need, if any is missing.
deps:
	@scripts/install-deps.sh

# The headers of the packages the build includes (and the tests': Criterion), checked
# before compiling, so that a fresh machine gets one line saying how to install them
# instead of a compiler error. Each is one #include <...> of the sources: a new one
# belongs here (tests/test_install.c checks them all).
BUILD_HEADERS := ini.h matheval.h stb/stb_image_write.h stb/stb_easy_font.h
TEST_HEADERS := criterion/criterion.h
check-test-deps: BUILD_HEADERS += $(TEST_HEADERS)
check-build-deps check-test-deps:
	@missing=""; for h in $(BUILD_HEADERS); do \
	    echo "#include <$$h>" | $(CC) -E -x c - > /dev/null 2>&1 || missing="$$missing $$h"; \
	done; [ -z "$$missing" ] || { echo "laplace: cannot build: no$$missing; 'make deps' \
	installs the packages (as root or with sudo; see scripts/install-deps.sh)" >&2; exit 1; }

# make install [PREFIX=/usr/local]: the binary, the presets, the plot scripts and a
# man page made from the installed binary's --help; each file written is listed in
# share/laplace/install-manifest with its checksum in share/laplace/install-sums, and
# make uninstall removes exactly those (and the folders left empty), never a file of
# someone else, and keeps (saying so) a file changed since, such as an edited preset.
# Installs the ./laplace already built. PREFIX and DESTDIR reach the recipes through
# the environment, as typed ($(value): make expands no '$' in them), so that any
# character a path may hold (a space, a quote, a '$') is taken as it is.
PREFIX ?= /usr/local
MANIFEST := share/laplace/install-manifest
SUMS := share/laplace/install-sums
# The folders make install needs, parents first; those it made are listed in
# share/laplace/install-dirs (kept from the first install), which make uninstall
# removes, deepest first, where they are left empty.
DIRS := share/laplace/install-dirs
INSTALL_DIRS := bin share share/man share/man/man1 share/laplace share/laplace/config \
                share/laplace/scripts share/doc share/doc/laplace
INSTALL_PRESETS := $(wildcard config/*.ini)
INSTALL_SCRIPTS := $(wildcard scripts/plot_*.gp)
install uninstall: export LAPLACE_PREFIX = $(value PREFIX)
install uninstall: export LAPLACE_DESTDIR = $(value DESTDIR)
install:
	@test -x ./laplace || { echo "make install: no ./laplace; run make first" >&2; exit 1; }
	@set -e; root="$$LAPLACE_DESTDIR$$LAPLACE_PREFIX"; \
	made=$$(for d in $(INSTALL_DIRS); do [ -d "$$root/$$d" ] || echo "$$d"; done); \
	for d in $(INSTALL_DIRS); do install -d "$$root/$$d"; done; \
	[ -f "$$root/$(DIRS)" ] || printf '%s\n' $$made > "$$root/$(DIRS)"; \
	install -m 755 laplace "$$root/bin/laplace"; \
	install -m 755 scripts/laplace-plot "$$root/bin/laplace-plot"; \
	for f in $(INSTALL_PRESETS); do install -m 644 "$$f" "$$root/share/laplace/config/"; done; \
	for f in $(INSTALL_SCRIPTS); do install -m 644 "$$f" "$$root/share/laplace/scripts/"; done; \
	install -m 644 LICENSE "$$root/share/doc/laplace/LICENSE"; \
	scripts/man_page.sh "$$root/bin/laplace" "$$LAPLACE_PREFIX" "$$LAPLACE_DESTDIR" \
	    > "$$root/share/man/man1/laplace.1"; \
	{ echo bin/laplace; echo bin/laplace-plot; echo share/man/man1/laplace.1; \
	  echo share/doc/laplace/LICENSE; \
	  for f in $(notdir $(INSTALL_PRESETS)); do echo "share/laplace/config/$$f"; done; \
	  for f in $(notdir $(INSTALL_SCRIPTS)); do echo "share/laplace/scripts/$$f"; done; \
	} > "$$root/$(MANIFEST)"; \
	(cd "$$root" && while IFS= read -r f; do sha256sum -- "$$f"; done < $(MANIFEST)) \
	    > "$$root/$(SUMS)"; \
	echo "installed $$(wc -l < "$$root/$(MANIFEST)") files under $$root (listed in $(MANIFEST))"

uninstall:
	@set -e; root="$$LAPLACE_DESTDIR$$LAPLACE_PREFIX"; \
	[ -f "$$root/$(MANIFEST)" ] || { echo "make uninstall: no $$root/$(MANIFEST): \
	nothing that make install wrote is there" >&2; exit 1; }; \
	while IFS= read -r f; do case "$$f" in /*|*..*|'') continue;; esac; \
	    sum=$$(awk -v f="$$f" '$$2 == f { print $$1 }' "$$root/$(SUMS)" 2>/dev/null); \
	    now=$$(cd "$$root" && sha256sum -- "$$f" 2>/dev/null | cut -d' ' -f1); \
	    if [ -n "$$sum" ] && [ -n "$$now" ] && [ "$$sum" != "$$now" ]; then \
	        echo "make uninstall: kept $$root/$$f: changed since make install"; \
	        continue; fi; \
	    rm -f -- "$$root/$$f"; done < "$$root/$(MANIFEST)"; \
	made="share/laplace share/laplace/config share/laplace/scripts share/doc/laplace"; \
	[ ! -f "$$root/$(DIRS)" ] || made=$$(cat "$$root/$(DIRS)"); \
	rm -f -- "$$root/$(MANIFEST)" "$$root/$(SUMS)" "$$root/$(DIRS)"; \
	for d in $$(printf '%s\n' $$made | sort -r); do \
	    rmdir -- "$$root/$$d" 2>/dev/null || true; done; \
	echo "removed what make install wrote under $$root"

# With a GPU visible, the job that shows what the GPUs give (config/default-gpu.ini);
# without, the one a CPU finishes in seconds (config/default.ini).
run: deps
	@$(MAKE) --no-print-directory laplace
	@bash scripts/run_job.sh ./laplace

# Each run's outputs (tests/out/<pid>-<name>) replace the last run's; afterwards
# tests/clean_out.sh (run_unit_tests.sh --clean-out) removes what the passing tests
# left (about 2.4 GB a run; 79 GB over 34 runs filled the CPU machine's disk once)
# and keeps, naming them, the outputs of the tests that failed.
test: deps
	@$(MAKE) --no-print-directory laplace $(BUILD)/unit_tests
	@rm -rf tests/out && mkdir -p tests/out
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/criterion_lsan.supp \
	    bash tests/run_unit_tests.sh $(BUILD)/unit_tests --clean-out=tests/out --jobs 2

# The GPU suite needs only ./laplace and bash: build here, carry it to the GPU machine.
# It builds ./laplace only when there is none (a GPU machine may lack the build deps).
test-gpu:
	@test -x ./laplace || $(MAKE) --no-print-directory laplace
	bash tests/gpu_suite.sh ./laplace
	bash tests/gpu_sanitize.sh ./laplace

# The benchmark on the GPUs present (a few minutes); see docs/speed.md, "Benchmark".
bench: laplace
	./laplace --bench

# Only its lattice sweep: 1 GPU against all of them, 128^2 ... 16384^2 (about a minute).
bench-sweep: laplace
	LAPLACE_BENCH_ONLY=sweep ./laplace --bench

# Plots of one bench: the matrix's CSV (scaling, updates per second, fraction of the
# copy bandwidth, layouts) and its lattice sweep's (X.csv and X-sweep.csv, whichever
# exist; CSV may name either).
# scripts/laplace-plot draws each (installed as PREFIX/bin/laplace-plot).
plots: deps
	@if [ -n "$(HISTORY)" ]; then scripts/laplace-plot history "$(HISTORY)"; exit; fi; \
	if [ -n "$(LAB)" ]; then scripts/laplace-plot lab "$(LAB)"; exit; fi; \
	csv="$(CSV)"; [ -n "$$csv" ] || csv=$$(ls -t results/bench-*.csv 2>/dev/null | head -n 1); \
	[ -n "$$csv" ] || { echo "plots: no results/bench-*.csv; run make bench or give CSV=path"; exit 1; }; \
	scripts/laplace-plot bench "$$csv"

format:
	clang-format -i $(wildcard *.c *.h *.cu $(FOLDERS:%=%/*.[ch]) $(FOLDERS:%=%/*.inc) \
	    kernels/*.cu kernels/*.h kernels/*.cuh) tests/*.c tests/*.h tests/fuzz/*.c tests/fuzz/*.h

clean:
	rm -rf build build-sanitize laplace tests/out

-include $(wildcard $(BUILD)/*.d $(FOLDERS:%=$(BUILD)/%/*.d) $(BUILD)/kernels/*.d $(BUILD)/tests/*.d)
include tests/fuzz/fuzz.mk
