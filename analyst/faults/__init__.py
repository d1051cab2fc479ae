"""Fault injection: the citation, number and finding faults the `noisy` simulator injects into
a rules answer (and fixes some of when repaired), and that the benchmarks' adversary builds on.

Test and simulator machinery, kept out of `showwork.protocol` (the contract every import pays
for): `citations` (broken citations), `numbers` (numbers that no cited value supports),
`findings` (mislabelled metrics, members, windows, directions).
"""
