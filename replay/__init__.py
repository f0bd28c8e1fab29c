"""Rules of play: variants, move generation, replay, notation, statistics and outputs."""
