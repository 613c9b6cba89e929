// A small stack machine: a dispatch loop over a switch, with every stack and frame operation a small
// function call, as in an interpreter written for clarity. Hot, short functions dominate.
const PUSH = 0;
const LOAD = 1;
const STORE = 2;
const ADD = 3;
const SUB = 4;
const MUL = 5;
const MOD = 6;
const LT = 7;
const JUMP = 8;
const JUMP_IF_FALSE = 9;
const CALL = 10;
const RETURN = 11;
const HALT = 12;

function createMachine(program, localCount) {
  return { program, stack: [], frames: [{ locals: new Array(localCount).fill(0), returnTo: -1 }], pc: 0 };
}

function push(machine, value) {
  machine.stack.push(value);
}

function pop(machine) {
  if (machine.stack.length === 0) throw new Error('stack underflow');
  return machine.stack.pop();
}

function frame(machine) {
  return machine.frames[machine.frames.length - 1];
}

function binary(machine, op) {
  const right = pop(machine);
  const left = pop(machine);
  switch (op) {
    case ADD:
      return push(machine, left + right);
    case SUB:
      return push(machine, left - right);
    case MUL:
      return push(machine, left * right);
    case MOD:
      return push(machine, right === 0 ? 0 : left % right);
    default:
      return push(machine, left < right ? 1 : 0);
  }
}

function call(machine, target, argumentCount, localCount) {
  const locals = new Array(localCount).fill(0);
  for (let i = argumentCount - 1; i >= 0; i--) locals[i] = pop(machine);
  machine.frames.push({ locals, returnTo: machine.pc });
  machine.pc = target;
}

function ret(machine) {
  const { returnTo } = machine.frames.pop();
  machine.pc = returnTo;
}

/** Runs until HALT; returns the value on top of the stack. */
function run(machine) {
  const code = machine.program;
  for (;;) {
    const op = code[machine.pc++];
    switch (op) {
      case PUSH:
        push(machine, code[machine.pc++]);
        break;
      case LOAD:
        push(machine, frame(machine).locals[code[machine.pc++]]);
        break;
      case STORE:
        frame(machine).locals[code[machine.pc++]] = pop(machine);
        break;
      case ADD:
      case SUB:
      case MUL:
      case MOD:
      case LT:
        binary(machine, op);
        break;
      case JUMP:
        machine.pc = code[machine.pc];
        break;
      case JUMP_IF_FALSE: {
        const target = code[machine.pc++];
        if (pop(machine) === 0) machine.pc = target;
        break;
      }
      case CALL: {
        const target = code[machine.pc++];
        const argumentCount = code[machine.pc++];
        call(machine, target, argumentCount, code[machine.pc++]);
        break;
      }
      case RETURN:
        ret(machine);
        break;
      case HALT:
        return pop(machine);
      default:
        throw new Error(`bad opcode ${op} at ${machine.pc - 1}`);
    }
  }
}

/** Opcodes and operands, with `label:` strings marking jump targets and label names as operands. */
function assemble(source) {
  const labels = new Map();
  let at = 0;
  for (const item of source) {
    if (typeof item === 'string' && item.endsWith(':')) labels.set(item.slice(0, -1), at);
    else at++;
  }
  const code = [];
  for (const item of source) {
    if (typeof item === 'string' && item.endsWith(':')) continue;
    code.push(typeof item === 'string' ? labels.get(item) : item);
  }
  return code;
}

/**
 * `s = 0; for (i = 0; i < n; i++) s = s + f(i); return s`, where `f(x) = x * x % 7 < 3 ? x : 0 - x` is a
 * call to a function of the program: calls, returns, branches and arithmetic in every iteration.
 */
function sumProgram(n) {
  // prettier-ignore
  return assemble([
    PUSH, 0, STORE, 0,
    PUSH, 0, STORE, 1,
    'loop:', LOAD, 1, PUSH, n, LT, JUMP_IF_FALSE, 'done',
    LOAD, 0, LOAD, 1, CALL, 'f', 1, 2, ADD, STORE, 0,
    LOAD, 1, PUSH, 1, ADD, STORE, 1, JUMP, 'loop',
    'done:', LOAD, 0, HALT,
    'f:', LOAD, 0, LOAD, 0, MUL, PUSH, 7, MOD, PUSH, 3, LT, JUMP_IF_FALSE, 'negative',
    LOAD, 0, RETURN,
    'negative:', PUSH, 0, LOAD, 0, SUB, RETURN,
  ]);
}

module.exports = { createMachine, run, sumProgram };
