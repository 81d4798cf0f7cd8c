"""vectors/same-contract.json holds what real validators say about the same mistakes: these tests make the
mistakes again through today's pydantic and jsonschema and check the vectors still hold their output (every
runner then renders the vectors and finds one envelope per mistake, whichever validator found it)."""

from __future__ import annotations

import json

import pytest
from same_contract import SPECS, VECTORS

from mcp_envelope.raw import render_validation_spec

GROUPS = json.loads(VECTORS.read_text(encoding="utf-8"))


@pytest.mark.parametrize("group", GROUPS, ids=[g["description"] for g in GROUPS])
def test_pydantic_and_jsonschema_still_say_what_the_vectors_hold(group: dict) -> None:
    made = 0
    for case in group["cases"]:
        spec = SPECS.get(case["description"])
        if spec is None:
            continue
        live = json.loads(json.dumps(spec(case["validation"]["action"], case["validation"]["arguments"])))
        assert live == case["validation"], f"{case['description']}: run `python tests/same_contract.py --write`"
        assert render_validation_spec(live) == case["expected"]
        made += 1
    assert made == 2
    assert len({case["expected"] for case in group["cases"]}) == 1, "one envelope per mistake"
