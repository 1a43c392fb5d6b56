"""Property tests of the stored box text: whatever text a graph holds, parsing it gives a box or a typed error
(the API's 422), never a bare ValueError (a 500); a box that was formatted parses back to itself."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from extractors.bbox import format_bbox, parse_bbox
from extractors.errors import InvalidBBoxError

# PDF coordinates: pages up to 14,400 pt, with room for boxes past the page's edge
coordinates = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
boxes = st.tuples(coordinates, coordinates, coordinates, coordinates)
pages = st.integers(min_value=1, max_value=100_000)


@given(pages, boxes)
@example(1, (14400.12, 0.0, 14400.99, 10000.01))
@example(3, (-0.0, 1e-9, 0.005, 999999.995))
def test_a_formatted_box_parses_back_to_itself(page, box):
    assert parse_bbox(format_bbox(page, box)) == (page, tuple(round(v, 2) for v in box))


@given(st.text(max_size=60))
@example("3:1,2,3")
@example("3:1,2,3,4,5")
@example("0:1,2,3,4")
@example("x:1,2,3,4")
@example("3:nan,2,3,4")
@example("3:1e999,2,3,4")
@example("3:1_0,2,3,4")
@example("")
@settings(max_examples=500)
def test_any_text_gives_a_box_or_a_typed_error(text):
    try:
        page, box = parse_bbox(text)
    except InvalidBBoxError as exc:
        assert exc.code == "INVALID_BBOX" and exc.message
    else:
        assert page >= 1 and len(box) == 4 and all(math.isfinite(v) for v in box)


@given(pages, boxes, st.sampled_from([":", ",", "", " ", "x"]), st.integers(min_value=0, max_value=30))
def test_a_damaged_box_is_a_typed_error(page, box, junk, at):
    text = format_bbox(page, box)
    damaged = text[:at] + junk + text[at + 1:]
    try:
        parse_bbox(damaged)
    except InvalidBBoxError:
        pass


@pytest.mark.parametrize("text", ["2:10,20,30,40", "2:1.23457e+06,0,1,1"])
def test_stored_boxes_still_parse(text):
    page, box = parse_bbox(text)
    assert page == 2 and len(box) == 4
