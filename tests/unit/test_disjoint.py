"""Disjoint sets (extractors/disjoint.py): joins are transitive and only what was joined shares a set."""

from extractors.disjoint import DisjointSets


def test_numbers_joined_directly_or_through_others_share_a_set_and_the_rest_stay_apart():
    sets = DisjointSets(5)
    sets.join(0, 1)
    sets.join(3, 1)
    assert sets.find(0) == sets.find(1) == sets.find(3)
    assert len({sets.find(0), sets.find(2), sets.find(4)}) == 3
    new = sets.add()
    assert new == 5 and sets.find(new) == 5
    sets.join(5, 2)
    sets.join(2, 2)  # joining a set to itself changes nothing
    assert sets.find(5) == sets.find(2) != sets.find(0)


def test_a_long_chain_of_joins_is_one_set():
    sets = DisjointSets(10_000)
    for i in range(9_999):
        sets.join(i, i + 1)
    assert len({sets.find(i) for i in range(10_000)}) == 1
