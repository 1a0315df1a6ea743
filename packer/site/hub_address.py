"""A JupyterHub's address as an instructor copies it from the browser, made into the hub's base address that
nbgitpuller's link is built on (packer/site/launch.py appends /hub/user-redirect/...).

A browser shows a hub's pages, not its base: the login page (https://hub.example.org/hub/login?next=...), the
home page (/hub/home), the learner's own server (/user/NAME/lab/tree/...), often without the https:// (Chromium
hides it). JupyterHub serves all of its own pages under {base_url}hub/ and each learner's server under
{base_url}user/NAME/ (JupyterHub's docs, "JupyterHub URL scheme",
https://jupyterhub.readthedocs.io/en/latest/reference/urls.html: every address can carry the base_url prefix); so the base is what
comes before the first /hub or /user/ part of the path, a hub served under a prefix (https://example.org/jupyter/)
keeping its prefix. What is not a web address (another scheme, no host, a space, a query on the base itself) is
refused with a ValueError naming the setting."""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

EXAMPLE = "https://hub.example.org, hub.example.org/hub/login or https://hub.example.org/user/NAME/lab"
HOST = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:\d{1,5})?")


def hub_base(address: str) -> str:
    """The hub's base address (https://hub.example.org or https://example.org/jupyter) from any address of one of
    its pages, with or without the scheme; a ValueError naming `hub` when it is not a web address."""
    text = address.strip()
    if not text or any(c.isspace() or ord(c) < 32 for c in text):
        raise ValueError(f"hub: {address!r} is not a JupyterHub's address ({EXAMPLE})")
    if "://" not in text and not text.startswith("//"):
        text = "https://" + text  # as the browser shows it, scheme hidden
    parts = urlsplit(text)
    if parts.scheme not in ("https", "http") or not HOST.fullmatch(parts.netloc or ""):
        raise ValueError(f"hub: {address!r} is not a JupyterHub's address ({EXAMPLE})")
    segments = parts.path.split("/")
    cut = next((i for i, s in enumerate(segments) if s == "hub" or (s == "user" and i + 1 < len(segments))), None)
    if cut is None and (parts.query or parts.fragment):
        raise ValueError(f"hub: {address!r} is not a JupyterHub's address ({EXAMPLE}): it has a query or a fragment")
    base = "/".join(segments[:cut]).rstrip("/")
    return urlunsplit((parts.scheme, parts.netloc, base, "", ""))
