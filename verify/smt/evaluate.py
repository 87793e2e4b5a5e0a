"""Values of terms under an assignment of their unknowns (tests hold the
concrete and symbolic backends together with it)."""

from __future__ import annotations

from typing import Any

from .terms import Session, z3


class Evaluator:
    """Values of terms when their unknowns take the values in `env` (name ->
    int, or bool for condition unknowns).  Tests use it to hold the concrete
    and symbolic backends together.  The model is made in the Session of
    the terms asked about (or in `session`, when given)."""

    def __init__(self, env: dict, session: Session | None = None):
        self.env = dict(env)
        self.ctx: Any = None
        self.model: Any = None
        if session is not None:
            self._solve(session.ctx)

    def _solve(self, ctx: Any) -> None:
        # the model written down directly (no solver call: a constant per
        # unknown), through z3's C API: what ModelRef.update_value(BitVec(name,
        # 32), BitVecVal(val, 32)) does, without its Python wrappers (they were
        # most of the CPU of the tests that evaluate, for an env of ~500 unknowns)
        model = z3.Model(ctx)
        c, m = ctx.ref(), model.model
        bv32, boolean = z3.BitVecSort(32, ctx).ast, z3.BoolSort(ctx).ast
        true, false = z3.BoolVal(True, ctx), z3.BoolVal(False, ctx)
        for name, val in self.env.items():
            sym = z3.Z3_mk_string_symbol(c, name)
            if type(val) is bool:
                decl = z3.Z3_mk_func_decl(c, sym, 0, None, boolean)
                z3.Z3_inc_ref(c, z3.Z3_func_decl_to_ast(c, decl))
                z3.Z3_add_const_interp(c, m, decl, (true if val else false).ast)
            else:
                decl = z3.Z3_mk_func_decl(c, sym, 0, None, bv32)
                z3.Z3_inc_ref(c, z3.Z3_func_decl_to_ast(c, decl))
                num = z3.Z3_mk_unsigned_int64(c, int(val) % (1 << 32), bv32)
                z3.Z3_inc_ref(c, num)
                z3.Z3_add_const_interp(c, m, decl, num)
                z3.Z3_dec_ref(c, num)
            z3.Z3_dec_ref(c, z3.Z3_func_decl_to_ast(c, decl))
        self.ctx, self.model = ctx, model

    def __call__(self, term):
        if type(term) in (int, bool):
            return term
        if term.ctx is not self.ctx:
            self._solve(term.ctx)
        r = self.model.eval(term, model_completion=True)
        if z3.is_bool(r):
            return z3.is_true(r)
        return r.as_long()
