"""pyrummy: rules engine, bots and front ends for the rummy family."""
