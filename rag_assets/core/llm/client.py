"""One settings path for every language model: the offline ``extractive`` engine (default), any
OpenAI-compatible server (``openai``: OpenAI, vLLM, Ollama, llama.cpp) or Azure OpenAI (``azure``).

Two roles: the small *librarian* model (model stitching, per-chunk evidence summaries) and the
*executive* model (answers, summaries). The ``openai`` client retries 429 and 5xx replies with
exponential backoff itself (``max_retries``) and bounds each call (``timeout``). Keys come from
the environment at call time (``settings.provider_environment``, handed to :func:`connect`) and
are never stored in a config, a log line or metadata: ``LLMConfig`` holds only the *names* of
the variables.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field

from rag_assets.core.llm.prompts import render

if TYPE_CHECKING:
    from openai import OpenAI
    from openai.types.chat import ChatCompletionMessageParam

Provider = Literal["extractive", "openai", "azure"]
Role = Literal["librarian", "executive"]


class LLMConfigError(RuntimeError):
    """A provider lacks a setting; ``str()`` names it in one line."""


class LLMReplyError(RuntimeError):
    """A model's reply could not be used (after the retry)."""


class LLMCallError(LLMReplyError):
    """The call itself failed (timeout, connection, a status the retries did not cure)."""


class LLMConfig(BaseModel):
    """Which engine writes, and how it is called: the settings' ``llm`` section
    (``core/settings.py``, beside the citation threshold)."""

    model_config = ConfigDict(extra="forbid")

    provider: Provider = Field(
        default="extractive", description="extractive (offline, deterministic), openai (any "
        "OpenAI-compatible server) or azure")
    librarian_model: str = Field(default="gpt-4o-mini", description="stitching, evidence notes")
    executive_model: str = Field(default="gpt-4o", description="answers and summaries")
    base_url: str | None = Field(default=None, description="OPENAI_BASE_URL when unset")
    api_key_env: str = Field(default="OPENAI_API_KEY", description="variable holding the key")
    azure_endpoint_env: str = Field(default="AZURE_OPENAI_ENDPOINT",
                                    description="variable holding the Azure endpoint")
    azure_key_env: str = Field(default="AZURE_OPENAI_API_KEY", description="variable holding "
                               "the Azure key (unset: Entra ID through azure-identity)")
    azure_api_version: str = Field(
        default="2024-10-21", description="AZURE_OPENAI_API_VERSION when set")
    timeout_seconds: float = Field(default=60.0, gt=0, description="bound of one call")
    max_retries: int = Field(default=3, ge=0, description="retries on 429, 5xx and timeouts")
    temperature: float = Field(default=0.0, ge=0.0, le=2.0, description="sampling temperature")
    max_tokens: int = Field(default=700, ge=16, description="tokens a reply may have")

    def model_for(self, role: Role) -> str:
        return self.librarian_model if role == "librarian" else self.executive_model


def _local(url: str | None) -> bool:
    return bool(url and re.match(r"https?://(127\.0\.0\.1|localhost|\[::1\])[:/]", url))


class ChatModel:
    """Chat completions through the ``openai`` package; counts its calls and seconds."""

    def __init__(self, config: LLMConfig, client: OpenAI, prompts: Path | None = None) -> None:
        self.config = config
        self.client = client
        self.prompts = prompts  # the folder of the system prompt (None: the repository's)
        self.calls = 0
        self.seconds = 0.0

    @property
    def provider(self) -> str:
        return self.config.provider

    def complete(self, prompt: str, role: Role = "executive", *, system: bool = True,
                 json_reply: bool = False) -> str:
        """The model's reply to ``prompt`` (with the ``system`` prompt that fences data)."""
        from openai import OpenAIError

        messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": prompt}]
        if system:
            messages.insert(0, {"role": "system", "content": render("system", self.prompts)})
        started = time.perf_counter()
        self.calls += 1
        try:
            reply = self.client.chat.completions.create(
                model=self.config.model_for(role), messages=messages,
                temperature=self.config.temperature, max_tokens=self.config.max_tokens,
            )
        except OpenAIError as err:
            raise LLMCallError(f"{self.provider} call failed: {type(err).__name__}: "
                                f"{str(err).splitlines()[0][:200]}") from None
        finally:
            self.seconds += time.perf_counter() - started
        return (reply.choices[0].message.content or "").strip()

    def complete_json(self, prompt: str, role: Role = "executive") -> dict[str, Any]:
        """A JSON object from the model: a tolerant parse, one retry, then ``LLMReplyError``."""
        reply = self.complete(prompt, role)
        parsed = parse_json_reply(reply)
        if parsed is None:
            reply = self.complete(prompt + "\n\nYour last reply was not valid JSON. Reply with "
                                  "the JSON object only.", role)
            parsed = parse_json_reply(reply)
        if parsed is None:
            raise LLMReplyError(f"the model's reply was not a JSON object twice: "
                                f"{reply[:120]!r}")
        return parsed


class _AzureSettings(TypedDict):
    """The ``AzureOpenAI`` arguments besides its credential."""

    azure_endpoint: str
    api_version: str
    timeout: float
    max_retries: int


def connect(config: LLMConfig, environ: Mapping[str, str], prompts: Path | None = None
            ) -> ChatModel | None:
    """The chat model of a provider, or None for ``extractive``; a missing setting raises
    ``LLMConfigError`` naming it. ``environ`` holds the variables the config names (its key,
    endpoint, ``OPENAI_BASE_URL``...), read at call time; ``prompts`` the prompt folder."""
    if config.provider == "extractive":
        return None
    import openai

    if config.provider == "openai":
        base_url = config.base_url or environ.get("OPENAI_BASE_URL") or None
        key = environ.get(config.api_key_env)
        if not key:
            if not _local(base_url):
                raise LLMConfigError(
                    f"provider 'openai' needs {config.api_key_env} (or base_url / "
                    "OPENAI_BASE_URL pointing at a local server)")
            key = "not-needed-locally"  # llama.cpp, Ollama and vLLM accept any key
        client = openai.OpenAI(api_key=key, base_url=base_url, timeout=config.timeout_seconds,
                               max_retries=config.max_retries)
        return ChatModel(config, client, prompts)
    endpoint = environ.get(config.azure_endpoint_env)
    if not endpoint:
        raise LLMConfigError(f"provider 'azure' needs {config.azure_endpoint_env}")
    version = environ.get("AZURE_OPENAI_API_VERSION") or config.azure_api_version
    common = _AzureSettings(azure_endpoint=endpoint, api_version=version,
                            timeout=config.timeout_seconds, max_retries=config.max_retries)
    key = environ.get(config.azure_key_env)
    if key:
        return ChatModel(config, openai.AzureOpenAI(api_key=key, **common), prompts)
    try:
        from azure.identity import DefaultAzureCredential, get_bearer_token_provider
    except ImportError:
        raise LLMConfigError(
            f"provider 'azure' needs {config.azure_key_env}, or azure-identity installed for "
            "Entra ID") from None
    token = get_bearer_token_provider(DefaultAzureCredential(),
                                      "https://cognitiveservices.azure.com/.default")
    return ChatModel(config, openai.AzureOpenAI(azure_ad_token_provider=token, **common),
                     prompts)


_FENCED_RE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
_TRAILING_COMMA_RE = re.compile(r",\s*([}\]])")


def parse_json_reply(reply: str) -> dict[str, Any] | None:
    """The first JSON object in a model's reply: inside a code fence or prose, with trailing
    commas or single quotes forgiven; None when there is none."""
    candidates = [m.group(1) for m in _FENCED_RE.finditer(reply)] + [reply]
    for text in candidates:
        start = text.find("{")
        while start != -1:
            depth, end = 0, None
            in_string, escaped, quote = False, False, ""
            for position in range(start, len(text)):
                char = text[position]
                if in_string:
                    if escaped:
                        escaped = False
                    elif char == "\\":
                        escaped = True
                    elif char == quote:
                        in_string = False
                elif char in "\"'":
                    in_string, quote = True, char
                elif char == "{":
                    depth += 1
                elif char == "}":
                    depth -= 1
                    if depth == 0:
                        end = position + 1
                        break
            if end is None:
                break
            snippet = _TRAILING_COMMA_RE.sub(r"\1", text[start:end])
            for attempt in (snippet, _single_to_double(snippet)):
                try:
                    value = json.loads(attempt)
                except json.JSONDecodeError:
                    continue
                if isinstance(value, dict):
                    return value
            start = text.find("{", start + 1)
    return None


def _single_to_double(text: str) -> str:
    """``{'a': 'b'}`` -> ``{"a": "b"}`` where the single quotes delimit keys and values."""
    return re.sub(r"(?<=[{,:\[]\s)'|(?<=[{,:\[])'|'(?=\s*[:,}\]])", '"', text)
