/* test.h — a tiny test framework. A test file defines TEST(name) { ... } functions
 * (the line must start with "TEST(" so the Makefile can list them) and uses the CHECK
 * macros, which count every assertion and print the failing ones with their values. */
#ifndef TEST_H
#define TEST_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern int test_passed, test_failed;
extern const char *test_current;

void test_fail(const char *file, int line, const char *fmt, ...);

#define TEST(name) void test_##name(void)

#define CHECK(cond) \
    do { if (cond) test_passed++; \
         else test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); } while (0)

#define CHECK_INT(expected, actual) \
    do { long long e_ = (long long)(expected), a_ = (long long)(actual); \
         if (e_ == a_) test_passed++; \
         else test_fail(__FILE__, __LINE__, "%s: expected %lld, got %lld", #actual, e_, a_); \
    } while (0)

#define CHECK_STR(expected, actual) \
    do { const char *e_ = (expected), *a_ = (actual); \
         if (a_ && strcmp(e_, a_) == 0) test_passed++; \
         else test_fail(__FILE__, __LINE__, "%s:\n  expected: %s\n  got:      %s", #actual, e_, \
                        a_ ? a_ : "(null)"); } while (0)

/* Substring check, for error messages. */
#define CHECK_CONTAINS(haystack, needle) \
    do { const char *h_ = (haystack), *n_ = (needle); \
         if (h_ && strstr(h_, n_)) test_passed++; \
         else test_fail(__FILE__, __LINE__, "%s does not contain \"%s\":\n  %s", #haystack, n_, \
                        h_ ? h_ : "(null)"); } while (0)

/* |a - e| <= atol + rtol * |e|, NaNs equal to NaNs. */
#define CHECK_NEAR(expected, actual, rtol, atol) \
    do { double e_ = (expected), a_ = (actual); \
         if ((isnan(e_) && isnan(a_)) || fabs(a_ - e_) <= (atol) + (rtol) * fabs(e_) || e_ == a_) \
             test_passed++; \
         else test_fail(__FILE__, __LINE__, "%s: expected %.9g, got %.9g", #actual, e_, a_); \
    } while (0)

/* Helpers shared by test files (tests/main.c). */
const char *test_build_dir(void);      /* "build" or "build-san" */
/* Runs a shell command, captures stdout+stderr (up to n bytes) and returns the exit status. */
int test_run(const char *cmd, char *out, size_t n);
/* Occurrences of needle in hay (NULL: 0), overlapping ones included. */
int test_count(const char *hay, const char *needle);
/* The fake driver's counters (tests/fake_libcuda.c's header says what each counts) when
 * this process loaded it (TRITONC_LIBCUDA_PATH), else zeros; at most 12. */
void test_fake_counters(long *c, int n);

#endif
