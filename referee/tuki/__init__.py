"""Tuki: cards and die (data in models/tuki/), the judge of a measured build, and the game.

Modules: `pieces` (levels, colours), `die` (DieFace), `grid` (text grids: scan, bars,
turning), `cards` (card grids, the target, decks), `judge` (Verdict), `buildgrid` (text grid
<-> MeasuredBuild), `game` (events fold), `generate` (the sample deck).
"""
