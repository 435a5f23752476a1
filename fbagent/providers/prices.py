"""What a run costs in dollars: the price table (``fbagent/data/prices.toml``, with its date and sources,
extended by ``--prices FILE`` or ``FBAGENT_PRICES=FILE``), the estimate of a plan, and the meter that stops
a run at ``--max-cost``.

Prices are US dollars per 1,000,000 tokens, input and output, per provider and model; a model matches a
key exactly, else the longest key followed by ``-`` (``gpt-4o-mini-2024-07-18`` -> ``gpt-4o-mini``).
A provider's ``batch_discount`` is the share of the price its batch API charges (0.5: half).
Engines in process (``local``, ``transformers``, ``vllm``) cost nothing per token. The model name decides
for an ``openai`` backend at any server: a self-hosted model (vLLM ``serve``, llama.cpp) has no price
unless a user file names it under ``[openai.models]`` (``{ input = 0, output = 0 }`` for free).

Cost of ``n_in`` input and ``n_out`` output tokens at price ``(p_in, p_out)``:
``(n_in * p_in + n_out * p_out) / 1e6``, times ``batch_discount`` at batch prices.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from fbagent.errors import FbagentError

ENV_PRICES = "FBAGENT_PRICES"
#: backends whose engine runs in this process: no per-token price
FREE_BACKENDS = ("local", "llamacpp", "transformers", "vllm")
PER_TOKENS = 1_000_000


class CostCapReached(FbagentError):
    """``--max-cost`` is spent: the run stops cleanly (what finished is stored; the same command with a
    higher cap goes on). Exit code 1."""

    exit_code = 1


@dataclass(frozen=True)
class Price:
    """Dollars per :data:`PER_TOKENS` input and output tokens of one model; ``batch_discount``: the share its
    provider's batch API charges; ``key``: the table key it matched; ``date``/``source``: where it is from."""

    input: float
    output: float
    batch_discount: float = 1.0
    key: str = ""
    date: str = ""
    source: str = ""

    def cost(self, input_tokens: int, output_tokens: int, *, batch: bool = False) -> float:
        """Dollars for the tokens (see the module docstring's formula)."""
        usd = (input_tokens * self.input + output_tokens * self.output) / PER_TOKENS
        return usd * (self.batch_discount if batch else 1.0)


FREE = Price(0.0, 0.0, 1.0, key="in process", source="the engine runs in this process")


@dataclass
class PriceTable:
    """Provider -> model key -> :class:`Price`, with the table's ``date`` and each provider's ``source``."""

    date: str = ""
    providers: dict[str, dict[str, Price]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)

    def lookup(self, backend: str, model: str | None) -> Price | None:
        """The :class:`Price` of ``model`` on ``backend``: :data:`FREE` for an engine in process; ``None`` when
        the table has none."""
        if backend in FREE_BACKENDS:
            return FREE
        models = self.providers.get(backend) or {}
        name = (model or "").strip()
        if name in models:
            return models[name]
        prefixes = [k for k in models if name.startswith(k + "-")]
        if not prefixes:
            return None
        return models[max(prefixes, key=len)]

    def merge(self, data: dict[str, Any], where: str) -> None:
        """Add (or replace) the providers and models of one parsed file ``data`` (``where``: its name for
        errors). Raises :class:`FbagentError` for a model without numeric ``input``/``output`` >= 0."""
        self.date = str(data.get("date") or self.date)
        for provider, section in data.items():
            if not isinstance(section, dict):
                continue
            discount = float(section.get("batch_discount", 1.0))
            source = str(section.get("source") or where)
            table = self.providers.setdefault(provider, {})
            for key, value in (section.get("models") or {}).items():
                ok = isinstance(value, dict) and all(isinstance(value.get(k), int | float) and value[k] >= 0
                                                     for k in ("input", "output"))
                if not ok:
                    raise FbagentError(f"{where}: [{provider}.models] {key!r} has no input and output price",
                                       f'write {key!r} = {{ input = 0.15, output = 0.60 }} (dollars per 1M tokens)')
                table[key] = Price(float(value["input"]), float(value["output"]), discount, key,
                                   str(data.get("date") or self.date), source)
        self.files.append(where)


def load_prices(extra: Path | None = None) -> PriceTable:
    """fbagent's table, then ``FBAGENT_PRICES`` and ``extra`` (``--prices``) on top. Raises
    :class:`FbagentError` for a file that cannot be read or is not TOML of that shape."""
    table = PriceTable()
    node = resources.files("fbagent").joinpath("data", "prices.toml")
    table.merge(tomllib.loads(node.read_text(encoding="utf-8")), "fbagent/data/prices.toml")
    for path in (os.environ.get(ENV_PRICES) or None, extra):
        if path:
            table.merge(_read(Path(path)), str(path))
    return table


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise FbagentError(f"cannot read the price file {path} ({err.strerror})",
                           f"pass --prices FILE (or {ENV_PRICES}) naming a TOML file like fbagent/data/prices.toml") from err
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise FbagentError(f"the price file {path} is not TOML ({err})",
                           "write it like fbagent/data/prices.toml ([openai.models] \"name\" = { input = .., output = .. })") from err


def estimate_tokens(text: str) -> int:
    """Rough token count of a prompt: ``ceil(chars / 4)`` (characters for scripts without spaces)."""
    return max(1, (len(text) + 3) // 4)


def usd(value: float | None) -> str:
    """Dollars for people: ``$12.35``, ``$0.0042`` below a cent, ``unknown`` for ``None``."""
    if value is None:
        return "unknown"
    return f"${value:,.2f}" if value >= 0.01 or value == 0 else f"${value:.4f}"


def check_cap(max_cost: float | None, price: Price | None, what: str) -> None:
    """Raise :class:`FbagentError` when ``--max-cost`` is given for a model the table has no price for
    (``what``: ``backend:model``), or is negative."""
    if max_cost is None:
        return
    if max_cost < 0:
        raise FbagentError(f"--max-cost must be 0 or more dollars, got {max_cost}", "pass --max-cost 5 (US dollars)")
    if price is None:
        raise FbagentError(f"--max-cost needs a price for {what}, and the price table has none",
                           f"add it in a TOML file passed with --prices FILE (or {ENV_PRICES}); see fbagent/data/prices.toml")


@dataclass
class CostMeter:
    """Dollars spent by one run at ``price``, against ``cap`` (``None``: no cap). ``spent`` counts every
    token recorded so far, earlier sessions included (they were paid for)."""

    price: Price
    cap: float | None = None
    spent: float = 0.0

    def add(self, input_tokens: int | None, output_tokens: int | None, *, batch: bool = False) -> None:
        """Count one answer's tokens (``batch``: answered through the provider's batch API, at its discount)."""
        self.spent += self.price.cost(int(input_tokens or 0), int(output_tokens or 0), batch=batch)

    @property
    def over(self) -> bool:
        return self.cap is not None and self.spent >= self.cap

    def stop(self, stored: str) -> CostCapReached:
        """The error that stops the run (``stored``: what is stored, for the line)."""
        return CostCapReached(f"--max-cost {usd(self.cap)} is spent ({usd(self.spent)} at {self.price.key}'s prices "
                              f"of {self.price.date or 'your price file'}); stopped: {stored}",
                              "run the same command with a higher --max-cost to go on (nothing stored is asked again)")
