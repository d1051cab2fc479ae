"""The claim protocol: answers, claims, citations, switches, schemas and prompts."""
