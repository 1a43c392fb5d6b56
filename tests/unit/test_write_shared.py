"""The writer sends properties equal in every row once per statement: the split must keep every value and its
stored type, and keep created_at apart (it is set on create only)."""

from datetime import datetime, timedelta, timezone

from kg.ingest.write import _split_shared

T = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)


def _rows(*props):
    return _split_shared(list(props), [{"id": f"n{i}"} for i in range(len(props))])


def test_values_equal_everywhere_travel_once_and_rows_keep_the_rest():
    params = _rows({"extractor": "x@1", "pages": [1], "text": "a", "created_at": T},
                   {"extractor": "x@1", "pages": [1], "text": "b", "created_at": T})
    assert params["shared"] == {"extractor": "x@1", "pages": [1]}
    assert params["created_at"] == T
    assert params["rows"] == [{"id": "n0", "props": {"text": "a"}}, {"id": "n1", "props": {"text": "b"}}]


def test_equal_values_of_another_stored_type_are_not_shared():
    params = _rows({"confidence": 1.0, "pages": [1.0], "flag": True}, {"confidence": 1, "pages": [1], "flag": 1})
    assert params["shared"] == {}
    assert [r["props"] for r in params["rows"]] == [{"confidence": 1.0, "pages": [1.0], "flag": True},
                                                     {"confidence": 1, "pages": [1], "flag": 1}]


def test_the_same_instant_in_another_zone_is_not_shared():
    other = T.astimezone(timezone(timedelta(hours=2)))
    params = _rows({"updated_at": T, "created_at": T}, {"updated_at": other, "created_at": other})
    assert params["shared"] == {} and params["created_at"] is None
    assert [r["created_at"] for r in params["rows"]] == [T, other]
    assert [r["props"] for r in params["rows"]] == [{"updated_at": T}, {"updated_at": other}]


def test_a_property_missing_from_one_row_stays_per_row():
    params = _rows({"doi": "10.1/x", "title": "t"}, {"title": "t"})
    assert params["shared"] == {"title": "t"}
    assert [r["props"] for r in params["rows"]] == [{"doi": "10.1/x"}, {}]


def test_rows_are_a_list_whose_repr_names_no_row():
    """The driver formats repr() of every parameter for its debug log even when that is off; rows must stay cheap."""
    params = _rows({"text": "a" * 1000}, {"text": "b" * 1000})
    assert isinstance(params["rows"], list) and len(params["rows"]) == 2
    assert repr(params["rows"]) == "<2 rows>"
