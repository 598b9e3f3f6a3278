"""One generator per domain: ``make(rng, steps, index) -> Question``.

``steps`` is the number of interdependent steps (subproblems, moves, instructions, edits)
the solver must chain; every answer is computed here, and each problem uses a template that
the real verifiers know, so generated answers are checked exactly like the real data.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from tasks.longcot.data import Question

MODULUS = 10007
WORD = 65536


def _answer_line(shape: str) -> str:
    return f"When you are done, return your final answer in the format: solution = {shape}"


def _question(
    domain: str, template: str, index: int, steps: int, prompt: str, answer: object, problem: dict | None = None
) -> Question:
    return Question(
        question_id=f"{template}-{steps}-{index}",
        domain=domain,
        split=f"steps{steps}",
        template=template,
        prompt=prompt,
        problem={"template": template, **(problem or {})},
        answer=answer,
    )


def make_math(rng: random.Random, steps: int, index: int) -> Question:
    """A DAG of ``steps`` dependent modular-arithmetic subproblems; three nodes' answers are asked."""
    values: list[int] = []
    lines = []
    for node in range(steps):
        a = rng.randint(2, 999)
        if node < 2:
            exponent = rng.randint(2, 9)
            values.append(pow(a, exponent, MODULUS))
            lines.append(f"node_{node}: compute {a}^{exponent} mod {MODULUS}.")
            continue
        i, j = rng.sample(range(node), 2)
        op = rng.choice(["+", "*", "-"])
        raw = {"+": values[i] + values[j], "*": values[i] * values[j], "-": values[i] - values[j]}[op]
        values.append((raw + a) % MODULUS)
        lines.append(
            f"node_{node}: take (answer of node_{i}) {op} (answer of node_{j}), add {a}, "
            f"and reduce mod {MODULUS} to 0..{MODULUS - 1}."
        )
    asked = sorted(rng.sample(range(steps), min(3, steps)), reverse=True)
    names = ", ".join(f"node_{n}" for n in asked)
    shape = "[" + ", ".join(f"answer for node_{n}" for n in asked) + "]"
    prompt = (
        "Solve the following dependent subproblems.\n"
        + "\n".join(lines)
        + f"\nWhat are the answers to problem {names}?\n"
        + _answer_line(shape)
    )
    return _question("math", "dag", index, steps, prompt, [str(values[n]) for n in asked])


def make_logic(rng: random.Random, steps: int, index: int) -> Question:
    """Random-configuration Tower of Hanoi whose disc count grows until the reference needs ``steps`` moves."""
    from tasks.longcot.oracle.solvers import hanoi

    discs = 3
    while True:
        start: list[list[int]] = [[], [], []]
        goal: list[list[int]] = [[], [], []]
        for disc in range(discs - 1, -1, -1):
            start[rng.randrange(3)].append(disc)
            goal[rng.randrange(3)].append(disc)
        moves = hanoi(start, goal) or []
        if len(moves) >= steps or discs >= 16:
            break
        discs += 1
    prompt = (
        f"Tower of Hanoi with {discs} discs on 3 stacks (larger number = larger disc), stacks listed "
        f"bottom first.\nInitial state: {start}\nGoal state: {goal}\nMove one top disc at a time and "
        "never onto a smaller disc. Write a move as [disc, from_stack, to_stack].\n"
        + _answer_line("[move0, move1, ..., movek]")
    )
    instance = {"n": discs, "k": 3, "initial_state": start, "goal_state": goal}
    return _question(
        "logic",
        "RandomHanoi",
        index,
        steps,
        prompt,
        None,
        {"config": {"n": discs, "k": 3}, "instance": instance, "solution": None},
    )


def make_chess(rng: random.Random, steps: int, index: int) -> Question:
    """A random legal game of ``steps`` plies in UCI; the final position's FEN is asked."""
    import chess

    board = chess.Board()
    played: list[str] = []
    while len(played) < steps:
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        if not legal:
            board, played = chess.Board(), []
            continue
        move = rng.choice(legal)
        played.append(move.uci())
        board.push(move)
    prompt = (
        "Starting from the standard initial position, these moves are played (UCI notation):\n"
        + " ".join(played)
        + "\nWhat is the FEN of the final position?\n"
        "Return your answer in the format: solution = <FEN notation>"
    )
    return _question("chess", "uci_to_fen", index, steps, prompt, board.fen())


def make_cs(rng: random.Random, steps: int, index: int) -> Question:
    """A register-machine trace of ``steps`` instructions; the final registers are asked as JSON."""
    regs = {f"r{i}": rng.randint(0, 99) for i in range(4)}
    initial = dict(regs)
    program = []
    for line in range(steps):
        dst, src = rng.choice(sorted(regs)), rng.choice(sorted(regs))
        op, k = rng.choice(["add", "sub", "mul", "xor"]), rng.randint(1, 9)
        a, b = regs[dst], regs[src]
        regs[dst] = ({"add": a + b, "sub": a - b, "mul": a * b, "xor": a ^ b}[op] + k) % WORD
        program.append(f"{line}: {dst} = ({dst} {op} {src} + {k}) mod {WORD}")
    prompt = (
        f"Registers start as {json.dumps(initial)}. Run this program once, in order "
        f"(mod {WORD} gives a value in 0..{WORD - 1}):\n"
        + "\n".join(program)
        + "\nWhat are the final register values?\n"
        + 'Return your solution in the format: solution = {"r0": <integer>, "r1": <integer>, '
        '"r2": <integer>, "r3": <integer>}.'
    )
    return _question("cs", "TM", index, steps, prompt, regs)


def make_chemistry(rng: random.Random, steps: int, index: int) -> Question:
    """``steps`` chained edits that grow a molecule atom by atom; three RDKit descriptors are asked."""
    from rdkit import Chem
    from rdkit.Chem import rdMolDescriptors

    mol = Chem.RWMol(Chem.MolFromSmiles("C"))
    edits = []
    elements = {"carbon": 6, "nitrogen": 7, "oxygen": 8}
    for _ in range(steps):
        Chem.SanitizeMol(mol)
        free = [a.GetIdx() for a in mol.GetAtoms() if a.GetTotalNumHs() > 0]
        target = rng.choice(free)
        name = rng.choice(["carbon", "carbon", "nitrogen", "oxygen"])
        new = mol.AddAtom(Chem.Atom(elements[name]))
        mol.AddBond(target, new, Chem.BondType.SINGLE)
        edits.append(f"Add a {name} atom (index {new}) bonded by a single bond to atom {target}.")
    Chem.SanitizeMol(mol)
    final = mol.GetMol()
    answer = [
        final.GetNumHeavyAtoms(),
        sum(a.GetTotalNumHs() for a in final.GetAtoms()),
        rdMolDescriptors.CalcNumRotatableBonds(final),
    ]
    prompt = (
        "Start from methane (one carbon atom, index 0). Apply these edits in order; new atoms get the "
        "next index and every atom keeps its normal valence by implicit hydrogens.\n"
        + "\n".join(edits)
        + "\nFor the final molecule give [heavy atom count, total hydrogen count, number of rotatable bonds "
        "(RDKit definition)].\n" + _answer_line("[heavy_atoms, hydrogens, rotatable_bonds]")
    )
    return _question("chemistry", "med1", index, steps, prompt, answer)


GENERATORS: dict[str, Callable[[random.Random, int, int], Question]] = {
    "chemistry": make_chemistry,
    "chess": make_chess,
    "cs": make_cs,
    "logic": make_logic,
    "math": make_math,
}
