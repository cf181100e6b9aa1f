"""Dicts and lists given to the package (Scenario.from_dict, set=, with_model) are held to the
limits of files (docs/limits.md "YAML"; docs/python.md "Errors"): a value that contains itself,
nesting deeper than yaml.depth, more nodes than yaml.nodes, a string over scalar.bytes or more
text than file.bytes raise tessera.InputError at the key path, whatever Python's recursion limit."""
import sys

import pytest

import tessera


def nested(depth, key="x"):
    """A dict `depth` mappings deep: {key: {key: ... {}}}."""
    root = cur = {}
    for _ in range(depth - 1):
        cur[key] = {}
        cur = cur[key]
    return root


def test_a_dict_that_contains_itself():
    d = {"name": "m"}
    d["x"] = d
    with pytest.raises(tessera.InputError) as e:
        tessera.Scenario.from_dict({"model": d})
    assert str(e.value) == ("<dict>: error: model.x: the mapping contains itself (the value here is the mapping "
                            "at model); a scenario is a tree")
    assert (e.value.file, e.value.key_path) == ("<dict>", "model.x")


def test_a_list_that_contains_itself():
    tp = [1, 2]
    tp.append(tp)
    with pytest.raises(tessera.InputError) as e:
        tessera.Scenario.from_dict({"sweep": {"parallelism": {"tp": tp}}})
    assert "sweep.parallelism.tp[2]: the list contains itself" in str(e.value)
    assert e.value.key_path == "sweep.parallelism.tp[2]"


def test_a_cycle_through_set_and_with_model():
    d = {}
    d["layers"] = [d]
    with pytest.raises(tessera.InputError, match=r"^<command line>: error: model\.layers\[0\]: the mapping"):
        tessera.Scenario.load(set={"model": d})
    with pytest.raises(tessera.InputError, match="contains itself"):
        tessera.Scenario.load().with_model(d)


def test_a_thousand_deep_dict():
    with pytest.raises(tessera.InputError) as e:
        tessera.Scenario.from_dict({"model": nested(1000)})
    # The dict is level 1, model level 2: the node at level 65 is model + 63 x's.
    assert str(e.value) == "<dict>: error: model" + ".x" * 63 + ": nesting deeper than yaml.depth (64)"
    assert e.value.key_path == "model" + ".x" * 63


def test_a_hundred_deep_dict_under_a_raised_recursion_limit():
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(100_000)
    try:
        with pytest.raises(tessera.InputError, match=r"nesting deeper than yaml\.depth \(64\)"):
            tessera.Scenario.from_dict({"model": nested(100)})
        with pytest.raises(tessera.InputError, match=r"^<command line>: error: model(\.x)+: nesting deeper"):
            tessera.Scenario.load(set={"model": nested(100)})
    finally:
        sys.setrecursionlimit(saved)


def test_depth_is_counted_as_in_a_yaml_file():
    from tessera._plain import plain

    # 63 mappings and a scalar: 64 levels, the limit; one more is refused.
    at_limit = nested(63)
    cur = at_limit
    while cur:
        cur = cur["x"]
    cur["x"] = 1
    assert plain(at_limit, "", "<dict>") == at_limit
    with pytest.raises(tessera.InputError, match="nesting deeper"):
        plain({"y": at_limit}, "", "<dict>")


def test_shared_values_count_each_time():
    # A "billion laughs" of shared lists: 10^9 nodes once expanded, refused at yaml.nodes.
    laughs = [0] * 1000
    for _ in range(2):
        laughs = [laughs] * 1000
    with pytest.raises(tessera.InputError, match=r"more than 1000000 nodes .*the limit yaml\.nodes"):
        tessera.Scenario.from_dict({"name": laughs})
    # One 60 KiB string a million times: refused at file.bytes, long before json.dumps would write it.
    with pytest.raises(tessera.InputError, match=r"more than 16777216 bytes of text, the limit file\.bytes"):
        tessera.Scenario.from_dict({"name": ["x" * 60_000] * 1_000_000})


def test_long_strings_keys_and_integers():
    with pytest.raises(tessera.InputError, match=r"^<dict>: error: name: a string of 70000 bytes is longer than "
                                                 r"the limit scalar\.bytes \(65536\)$"):
        tessera.Scenario.from_dict({"name": "x" * 70_000})
    with pytest.raises(tessera.InputError, match=r"^<dict>: error: model: a key of 70000 bytes"):
        tessera.Scenario.from_dict({"model": {"k" * 70_000: 1}})
    with pytest.raises(tessera.InputError, match=r"workload\.batch: an integer of \d+ bits is a number beyond"):
        tessera.Scenario.from_dict({"workload": {"batch": 10**5000}})
