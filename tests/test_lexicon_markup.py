"""FrameNet definition markup -> clean text and <ex> examples with target spans."""

from fbagent.framenet.markup import clean_lu_definition, parse_definition, parse_example


def span(ex):
    return ex.text[ex.target_start : ex.target_end]


def test_definition_examples_and_targets():
    markup = (
        "<def-root>An object (the <fen>Theme</fen>) moves away from a <fen>Source</fen>.\n\n"
        '<ex><fex name="Theme">The plane</fex> <t>leaves</t> <fex name="Time">at seven</fex>.'
        '<fex name="Source">DNI</fex>.</ex>\n'
        "<ex>We all <t>exited</t> the room.</ex></def-root>"
    )
    clean, examples = parse_definition(markup)
    assert clean == "An object (the Theme) moves away from a Source."
    assert [e.text for e in examples] == ["The plane leaves at seven.", "We all exited the room."]
    assert [span(e) for e in examples] == ["leaves", "exited"]
    assert (examples[0].target_start, examples[0].target_end) == (10, 16)


def test_unknown_tags_empty_and_unclosed_examples():
    clean, examples = parse_definition(
        "A <fen>Speaker</fen> cites.<ex></ex> <asf>ASFALDA comment</asf>: too narrow. <ex>He <t>cited</t> it"
    )
    assert clean == "A Speaker cites. ASFALDA comment: too narrow."
    assert len(examples) == 1 and span(examples[0]) == "cited"


def test_example_without_target_and_first_target_only():
    _, examples = parse_definition("<ex>No target here.</ex><ex>She <t>gave</t> it <t>up</t>.</ex>")
    assert examples[0].target_start is None and examples[0].target_end is None
    assert span(examples[1]) == "gave"


def test_parse_example_whitespace_and_entities():
    ex = parse_example("She  <t> left </t>\n early &amp; fast.")
    assert ex.text == "She left early & fast."
    assert span(ex) == "left"


def test_empty_inputs_and_lu_definition_prefix():
    assert parse_definition(None) == ("", [])
    assert parse_definition("") == ("", [])
    assert clean_lu_definition("COD: go away from") == "go away from"
    assert clean_lu_definition("FN: the use of force") == "the use of force"
    assert clean_lu_definition("leave a place") == "leave a place"
    assert clean_lu_definition(None) == ""
