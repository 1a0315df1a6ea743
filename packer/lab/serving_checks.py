"""What mistral-common checks of a conversation when it validates for serving, beside what mistral_chat counts.

mistral-common validates every request before its template renders it, and how much it checks depends on the
validator's mode (ValidationMode in mistral_common/protocol/instruct/validator.py). `MistralTokenizer.v7()`, the
tokenizer packer.chat counts with, is loaded in `ValidationMode.test`: the order of roles is checked, not that
every call has its result. `ValidationMode.serving` also refuses a call left without its result, and the
validator of mistral-common's v13 tokenizers (`MistralRequestValidatorV13`) also compares each result's
`tool_call_id` with the calls. Lesson 09 shows both beside the count (the installed package ships no v13
tokenizer, so that one is its validator alone).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from packer.chat import for_mistral
from packer.lab.agent_transcript import SEARCH_TOOL

# A serving request names its model; this one is served by the v7 template in mistral-common's own table of
# models (MODEL_NAME_TO_TOKENIZER_CLS, lesson 07).
SERVING_MODEL = "mistral-large-2411"
V7_SERVING = "v7, serving mode"
V13_SERVING = "v13 validator, serving mode"


@functools.cache
def _serving_v7() -> Any:
    """mistral-common's v7 tokenizer, from the same file MistralTokenizer.v7() loads, validating for serving."""
    from mistral_common.protocol.instruct.validator import ValidationMode
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    shipped = MistralTokenizer.v7()
    return MistralTokenizer.from_file(shipped.instruct_tokenizer.tokenizer.file_path, mode=ValidationMode.serving)


def serving_checks(messages: Any, tools: Sequence[Any] = (SEARCH_TOOL,)) -> dict[str, str]:
    """What mistral-common says of the request in ValidationMode.serving: the v7 tokenizer's token count or its
    refusal, and the v13 validator's "accepted" or its refusal."""
    from mistral_common.exceptions import MistralCommonException
    from mistral_common.protocol.instruct.request import ChatCompletionRequest
    from mistral_common.protocol.instruct.validator import ValidationMode, get_validator
    from mistral_common.tokens.tokenizers.base import TokenizerVersion

    shaped = for_mistral(messages)  # what packer.chat's counters hand from_openai: ids mapped to Mistral's
    request = ChatCompletionRequest.from_openai(shaped, tools=list(tools) or None, model=SERVING_MODEL)
    verdicts = {}
    try:
        verdicts[V7_SERVING] = f"{len(_serving_v7().encode_chat_completion(request).tokens)} tokens"
    except MistralCommonException as error:
        verdicts[V7_SERVING] = f"refused: {error}"
    try:
        get_validator(TokenizerVersion.v13, ValidationMode.serving).validate_request(request)
        verdicts[V13_SERVING] = "accepted"
    except MistralCommonException as error:
        verdicts[V13_SERVING] = f"refused: {error}"
    return verdicts
