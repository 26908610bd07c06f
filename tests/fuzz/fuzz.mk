# tests/fuzz/fuzz.mk - libFuzzer targets of the input layers (included by the Makefile).
#
#   make fuzz [FUZZ_SECONDS=N]   build every target under build-fuzz/ and run each
#                                for N seconds (default 30) on a copy of its seed
#                                corpus; fails on any crash, leak, UB or timeout
#
# Targets (tests/fuzz/fuzz_*.c, each says what it feeds and checks): ini (an INI
# file to config_load_file + config_validate), args (a command line to
# config_from_args + config_validate), expression (expression_parse + _eval).
# Seeds in tests/fuzz/corpus/TARGET/, a dictionary in tests/fuzz/TARGET.dict;
# the grown corpus, logs and crash files stay in build-fuzz/, out of git.
# Needs clang with libFuzzer (Debian: clang-14 libclang-rt-14-dev); not part of
# make test.

CLANG ?= clang-14
FUZZ_SECONDS ?= 30
FUZZ_TIMEOUT ?= 10
FUZZ_BUILD := build-fuzz
FUZZ_TARGETS := ini args expression

FUZZ_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=c11 -D_DEFAULT_SOURCE -O1 -g -fno-omit-frame-pointer \
               -ffp-contract=off -Wall -Wextra -I. -MMD -MP \
               -fsanitize=fuzzer-no-link $(FUZZ_SANITIZE)
FUZZ_LDFLAGS := -fsanitize=fuzzer $(FUZZ_SANITIZE)
# inih and matheval as the Makefile links them (PACKAGE_LIBS)
FUZZ_LIBS := $(PACKAGE_LIBS) -lm

# The project's sources each target needs, compiled with clang.
FUZZ_CONFIG_OBJS := $(addprefix $(FUZZ_BUILD)/,$(addprefix settings/,config.o config_args.o \
                    config_help.o config_ini.o config_parse.o config_region.o \
                    config_validate.o ini_value.o presets.o setters.o) support/error.o support/tuning.o \
                    problem/expression.o \
                    problem/field.o problem/problem.o problem/update_rule.o \
                    tests/fuzz_config_check.o)
FUZZ_ini_OBJS := $(FUZZ_BUILD)/tests/fuzz_ini.o $(FUZZ_CONFIG_OBJS)
FUZZ_args_OBJS := $(FUZZ_BUILD)/tests/fuzz_args.o $(FUZZ_CONFIG_OBJS)
FUZZ_expression_OBJS := $(FUZZ_BUILD)/tests/fuzz_expression.o $(FUZZ_BUILD)/problem/expression.o \
                        $(FUZZ_BUILD)/support/error.o

FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
.SECONDARY: $(sort $(FUZZ_ini_OBJS) $(FUZZ_args_OBJS) $(FUZZ_expression_OBJS))

.PHONY: fuzz fuzz-build fuzz-clean

# Installs clang-14 and libFuzzer too when missing, then builds and runs in turn.
fuzz:
	@scripts/install-deps.sh --fuzz
	@$(MAKE) --no-print-directory fuzz-build
	@status=0; for t in $(FUZZ_TARGETS); do \
	    tests/fuzz/run.sh $(FUZZ_BUILD) $$t $(FUZZ_SECONDS) $(FUZZ_TIMEOUT) || status=1; \
	done; exit $$status

fuzz-build: $(FUZZ_BINS)

clean: fuzz-clean
fuzz-clean:
	rm -rf $(FUZZ_BUILD)

.SECONDEXPANSION:
$(FUZZ_BUILD)/fuzz_%: $$(FUZZ_$$*_OBJS)
	$(CLANG) $(FUZZ_LDFLAGS) -o $@ $^ $(FUZZ_LIBS)

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_BUILD)/tests/%.o: tests/fuzz/%.c
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -Werror -c -o $@ $<

-include $(wildcard $(FUZZ_BUILD)/*.d $(FUZZ_BUILD)/*/*.d $(FUZZ_BUILD)/tests/*.d)
