/* test_ptxdce.c — src/gpu/ptxdce.c: what the removal of dead PTX instructions keeps and
 * drops, on hand-written PTX. (scripts/ptx-dce-check.sh checks on the whole kernel suite that
 * ptxas makes the same machine code with and without it.) */
#include "test.h"
#include "gpu/lower.h"

#include <string.h>

static char kept[8192];

/* ptx_dce over text (registers numbered below 64 in every class); the result in kept */
static void dce(const char *text) {
    Buf b = {0};
    buf_puts(&b, text);
    int nregs[4] = {63, 63, 63, 63};
    CHECK(ptx_dce(&b, nregs));
    snprintf(kept, sizeof kept, "%s", b.s ? b.s : "");
    buf_free(&b);
}

TEST(ptxdce_unused_chain_removed_store_operands_kept) {
    dce("\tmov.u32 %r1, %tid.x;\n"
        "\tmul.wide.u32 %rd1, %r1, 4;\n"
        "\tadd.s64 %rd2, %rd9, %rd1;\n"
        "\tadd.s64 %rd3, %rd2, 64;\n"       /* dead: nothing reads %rd3 */
        "\tmul.lo.s32 %r2, %r1, %r1;\n"     /* dead chain: %r2 -> %r3 */
        "\tadd.s32 %r3, %r2, 1;\n"
        "\tst.global.b32 [%rd2], %r1;\n");
    CHECK_CONTAINS(kept, "mov.u32 %r1, %tid.x;");
    CHECK_CONTAINS(kept, "add.s64 %rd2, %rd9, %rd1;");
    CHECK_CONTAINS(kept, "st.global.b32 [%rd2], %r1;");
    CHECK(strstr(kept, "%rd3") == NULL);
    CHECK(strstr(kept, "%r2") == NULL);
    CHECK(strstr(kept, "%r3") == NULL);
}

TEST(ptxdce_loop_carried) {
    /* a pointer advanced every iteration but never read: the cycle goes; the counter, read
     * by the branch's guard, stays, and so does every write of a live register */
    dce("\tmov.b64 %rd1, %rd9;\n"
        "\tmov.u32 %r1, 0;\n"
        "$L1:\n"
        "\tadd.s64 %rd2, %rd1, 16;\n"
        "\tmov.b64 %rd1, %rd2;\n"
        "\tadd.s32 %r1, %r1, 1;\n"
        "\t@%p1 mov.u32 %r1, 7;\n"
        "\tsetp.lt.s32 %p2, %r1, 10;\n"
        "\t@%p2 bra $L1;\n");
    CHECK(strstr(kept, "%rd") == NULL);
    CHECK_CONTAINS(kept, "$L1:");
    CHECK_CONTAINS(kept, "mov.u32 %r1, 0;");
    CHECK_CONTAINS(kept, "add.s32 %r1, %r1, 1;");
    CHECK_CONTAINS(kept, "@%p1 mov.u32 %r1, 7;");
    CHECK_CONTAINS(kept, "setp.lt.s32 %p2, %r1, 10;");
    CHECK_CONTAINS(kept, "@%p2 bra $L1;");
}

TEST(ptxdce_multiple_destinations_and_effects) {
    dce("\tmov.b64 {%r1, %r2}, %rd1;\n"             /* %r2 read below: the unpack stays */
        "\tsetp.lt.s32 %p1|%p2, %r3, %r4;\n"        /* neither read: goes */
        "\tld.shared.v2.b32 {%r5, %r6}, [%r7];\n"   /* unread load: goes */
        "\tld.volatile.global.b32 %r8, [%rd2];\n"   /* volatile: stays */
        "\tatom.global.add.u32 %r9, [%rd3], 1;\n"   /* an effect, result unread: stays */
        "\tcp.async.ca.shared.global [%r10], [%rd4], 16;\n"
        "\tbar.sync 0;\n"
        "\tshfl.sync.bfly.b32 %r11, %r12, 1, 31, -1;\n"   /* not in the pure table: stays */
        "\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0], %rd5;\n"
        "\tcall.uni (retval0), vprintf, (param0, param1);\n\t}\n"
        "\tst.global.b32 [%rd6], %r2;\n"
        "\tret;\n");
    CHECK_CONTAINS(kept, "mov.b64 {%r1, %r2}, %rd1;");
    CHECK(strstr(kept, "setp") == NULL);
    CHECK(strstr(kept, "ld.shared") == NULL);
    CHECK_CONTAINS(kept, "ld.volatile.global.b32 %r8");
    CHECK_CONTAINS(kept, "atom.global.add.u32 %r9");
    CHECK_CONTAINS(kept, "cp.async.ca.shared.global");
    CHECK_CONTAINS(kept, "bar.sync 0;");
    CHECK_CONTAINS(kept, "shfl.sync.bfly.b32 %r11");
    CHECK_CONTAINS(kept, "st.param.b64 [param0], %rd5;");
    CHECK_CONTAINS(kept, "call.uni (retval0), vprintf");
    CHECK_CONTAINS(kept, "ret;");
}

TEST(ptxdce_operands_of_kept_code_stay) {
    /* wgmma reads and writes its accumulators: an effect, so everything feeding it stays */
    dce("\tmov.b32 %r1, 0f00000000;\n"
        "\tmov.b64 %rd1, 1024;\n"
        "\twgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%r1, %r2, %r3, %r4}, %rd1, %rd2, 1, 1, 1, 0, 0;\n"
        "\tcvt.rn.f16.f32 %h1, %r5;\n");   /* %h1 unread: goes */
    CHECK_CONTAINS(kept, "mov.b32 %r1, 0f00000000;");
    CHECK_CONTAINS(kept, "mov.b64 %rd1, 1024;");
    CHECK_CONTAINS(kept, "wgmma.mma_async");
    CHECK(strstr(kept, "cvt.rn.f16.f32") == NULL);
}
