/* print.c — device_print on the GPU: vprintf, one line per element, formatted as the
 * interpreter formats it (its prefix, the element's index, the value). */
#include "gpu/lower.h"

#include <string.h>

void lower_print(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    int L = 0;
    for (int k = 0; k < in->nargs; k++)
        if (f->types[in->args[k]].rank) { L = g->vlay[in->args[k]]; break; }
    Layout Lx = g->lays[L].L;
    int n = nlay(g, L);
    int **V = arena_alloc(g->a, sizeof(int *) * (size_t)(in->nargs ? in->nargs : 1));
    for (int k = 0; k < in->nargs; k++) {
        Type t = f->types[in->args[k]];
        if (t.rank && (t.rank != Lx.rank || memcmp(t.shape, Lx.shape, sizeof(int32_t) * (size_t)t.rank)))
            unsupported(g, "device_print of tensors of different shapes");
        V[k] = get(g, in->args[k], L);
    }
    /* the format */
    bool hex = in->attr.kind & 1;
    const char *prefix = in->attr.str ? in->attr.str : "";
    size_t plen = strlen(prefix);
    while (plen && (prefix[plen - 1] == ' ' || prefix[plen - 1] == ':')) plen--;
    Buf fmt = {0};
    buf_puts(&fmt, "pid (%u, %u, %u) idx (");
    for (int d = 0; d < Lx.rank; d++) buf_puts(&fmt, d ? ", %u" : "%u");
    buf_puts(&fmt, ") ");
    buf_putn(&fmt, prefix, plen);
    buf_puts(&fmt, ":");
    for (int k = 0; k < in->nargs; k++) {
        int dt = f->types[in->args[k]].dt;
        const char *c = hex ? "0x%llx" : dt_is_float(dt) ? "%f" : dt_is_signed(dt) ? "%lld" : "%llu";
        buf_printf(&fmt, k ? ", %s" : " %s", c);
    }
    buf_puts(&fmt, "\n");
    int sid = g->nstr++;
    buf_printf(&g->glob, ".global .align 1 .b8 $str%d[%zu] = {", sid, fmt.len + 1);
    for (size_t i = 0; i <= fmt.len; i++)
        buf_printf(&g->glob, i ? ", %u" : "%u", i < fmt.len ? (unsigned char)fmt.s[i] : 0u);
    buf_puts(&g->glob, "};\n");
    buf_free(&fmt);
    int hdr = 4 * (3 + Lx.rank);
    int off0 = (hdr + 7) & ~7;
    int size = off0 + 8 * in->nargs;
    if (size > g->prbuf) g->prbuf = size;
    int pid[3];
    for (int i = 0; i < 3; i++) {
        pid[i] = nr(g, CR);
        E(g, "mov.u32 %s, %%ctaid.%c;", rn(g, pid[i]), "xyz"[i]);
    }
    int fa = nr(g, CD), ba = nr(g, CD);
    E(g, "mov.u64 %s, $str%d;", rn(g, fa), sid);
    E(g, "cvta.global.u64 %s, %s;", rn(g, fa), rn(g, fa));
    E(g, "mov.u64 %s, __prbuf;", rn(g, ba));
    E(g, "cvta.local.u64 %s, %s;", rn(g, ba), rn(g, ba));
    int red = tred(g, L);
    int tf = tflat(g, L);
    int lo[TC_MAX_RANK];
    lay_lo(Lx.rank, Lx.shape, lo);
    for (int r = 0; r < n; r++) {
        int skip = ++g->labels;
        if (red) E(g, "@!%s bra $L%d;", rn(g, red), skip);
        for (int i = 0; i < 3; i++) E(g, "st.local.u32 [__prbuf+%d], %s;", 4 * i, rn(g, pid[i]));
        if (Lx.rank) {
            int fl = nr(g, CR);
            E(g, "add.u32 %s, %s, %lld;", rn(g, fl), rn(g, tf), (long long)lay_reg_flat(&Lx, r));
            for (int d = 0; d < Lx.rank; d++) {
                int c = nr(g, CR);
                E(g, "bfe.u32 %s, %s, %d, %d;", rn(g, c), rn(g, fl), lo[d], lg2i(Lx.shape[d]));
                E(g, "st.local.u32 [__prbuf+%d], %s;", 12 + 4 * d, rn(g, c));
            }
        }
        for (int k = 0; k < in->nargs; k++) {
            int dt = f->types[in->args[k]].dt;
            int x = V[k][f->types[in->args[k]].rank ? r : 0];
            int w = nr(g, CD);
            if (dt == DT_I1) {
                E(g, "selp.u64 %s, 1, 0, %s;", rn(g, w), rn(g, x));
            } else if (dt_is_float(dt)) {
                if (hex) {
                    if (dt == DT_FP64) w = x;
                    else {
                        int t = is_half(dt) ? nr(g, CR) : x;
                        if (is_half(dt)) E(g, "cvt.u32.u16 %s, %s;", rn(g, t), rn(g, x));
                        E(g, "cvt.u64.u32 %s, %s;", rn(g, w), rn(g, t));
                    }
                } else if (dt == DT_FP64) w = x;
                else {
                    int t = is_half(dt) ? up(g, x, dt) : dt_is_fp8(dt) ? fp8_up(g, x, dt) : x;
                    E(g, "cvt.f64.f32 %s, %s;", rn(g, w), rn(g, t));
                }
            } else if (dcls(dt) == CD) {
                w = x;
            } else {
                E(g, "cvt.%s.%s %s, %s;", dt_is_signed(dt) ? "s64" : "u64", dt_is_signed(dt) ? "s32" : "u32",
                  rn(g, w), rn(g, x));
            }
            E(g, "st.local.b64 [__prbuf+%d], %s;", off0 + 8 * k, rn(g, w));
        }
        E(g, "{");
        E(g, ".param .b64 param0;");
        E(g, ".param .b64 param1;");
        E(g, ".param .b32 retval0;");
        E(g, "st.param.b64 [param0], %s;", rn(g, fa));
        E(g, "st.param.b64 [param1], %s;", rn(g, ba));
        E(g, "call.uni (retval0), vprintf, (param0, param1);");
        E(g, "}");
        buf_printf(&g->body, "$L%d:\n", skip);
    }
}

