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
        # the model written down directly (no solver call: a constant per unknown)
        model = z3.Model(ctx)
        for name, val in self.env.items():
            if type(val) is bool:
                model.update_value(z3.Bool(name, ctx), z3.BoolVal(val, ctx))
            else:
                model.update_value(z3.BitVec(name, 32, ctx), z3.BitVecVal(val, 32, ctx))
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
