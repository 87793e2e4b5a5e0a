"""Hazard roles are a closed set (issue #36, item 3): an op that declares a
role outside it fails when it is registered, every rule's consumer role is
one an op can play (or every VALU), and every role some rule names is played
by an op, so no rule is dead and no declared role is silently ignored."""

from __future__ import annotations

import pytest

from verify.hazards import RULES
from verify.ops.base import HAZARD_ROLES, MNEMONICS, OpDef, register


def test_a_misspelt_role_fails_at_registration():
    class Typo(OpDef):
        base = "v_typo_test_b32"
        hazard_roles = frozenset({"lane-select"})

    with pytest.raises(ValueError, match="v_typo_test_b32: unknown hazard role lane-select"):
        register(Typo())


def test_every_rule_names_a_known_role():
    assert {r.role for r in RULES} <= HAZARD_ROLES | {"valu", "sgpr_read", "vmem", "smrd"}  # (hazards._RULE_ROLES)


def test_every_declared_role_is_consumed_by_a_rule_and_played_by_an_op():
    consumed = {r.role for r in RULES}
    assert consumed >= HAZARD_ROLES
    played = set()
    for op, _ in MNEMONICS.values():
        played |= op.hazard_roles
    played.add("dpp")  # per instruction (OpDef.roles on a DPP encoding)
    assert played >= HAZARD_ROLES
