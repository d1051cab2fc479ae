"""The claim protocol: answers, claims, citations, switches, schemas and prompts."""

from protocol.compiled import guard

guard()  # before any compiled module loads: a stale build is never used
