"""Tuki: cards and die (data in models/tuki/), the judge of a measured build, and the game.

Modules: `pieces` (levels, colours), `die` (DieFace), `cards` (grids, turning, decks),
`judge` (Verdict), `buildgrid` (text grid <-> MeasuredBuild), `game` (events fold),
`generate` (the sample deck).
"""
