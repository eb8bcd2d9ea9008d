"""The rules from Python agree with the command line's: perft counts and move lists of
random positions of every game, counted by Python's own walk over `legal_actions`."""

from conftest import random_states, run


def perft(state, depth: int) -> int:
    """Leaves `depth` plies deep, a finished game counting as one, as `quasar perft` counts."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


def cli_count(output: str) -> int:
    line = next(l for l in output.splitlines() if l.startswith("perft "))
    return int(line.rsplit(":", 1)[1])


def test_perft_and_moves_agree_with_the_command_line(sized):
    game, options = sized
    for state in random_states(game, 12, seed=21, max_plies=80):
        if state.is_terminal():
            continue
        position = ["--position", state.position()]
        divide = run("perft", *options, *position, "--depth", "1", "--divide")
        cli_moves = sorted(
            line.split()[0]
            for line in divide.splitlines()
            if len(line.split()) == 2 and line.split()[1].isdigit()
        )
        ours = sorted(state.action_to_string(a) for a in state.legal_actions())
        assert ours == cli_moves, state.position()
        out = run("perft", *options, *position, "--depth", "3")
        assert perft(state, 3) == cli_count(out), state.position()


def test_start_perft_matches_the_published_counts():
    import quasar

    # Breakthrough 8x8 from the start: 22, 484, 11132 (the counts quasar's own tests and
    # other Breakthrough programs give).
    state = quasar.load_game("breakthrough", board="8x8").new_initial_state()
    assert [perft(state, d) for d in (1, 2, 3)] == [22, 484, 11132]
    # English checkers from the start: 7, 49, 302.
    state = quasar.load_game("checkers").new_initial_state()
    assert [perft(state, d) for d in (1, 2, 3)] == [7, 49, 302]
