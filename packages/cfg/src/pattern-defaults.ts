import * as t from '@babel/types';

/** A default value the graph keeps inside its block instead of branching on it, and why. */
export interface OpaqueDefault {
  readonly node: t.AssignmentPattern;
  readonly reason: string;
}

/** Which defaults of one binding or assignment target are path decisions, and which are not. */
export interface PatternDefaults {
  readonly decided: ReadonlySet<t.AssignmentPattern>;
  readonly opaque: readonly OpaqueDefault[];
}

/**
 * Where a pattern's defaults can be exact path decisions. "The value was present" has no place for code in
 * JavaScript, so that edge is silent (isSilentKind) and the code that tells the paths apart runs at the next
 * place that has one. That is exact only if nothing can throw in between: the default's target must be a
 * plain binding (initialising a declared name cannot throw, assigning one can) and the next step must have a
 * place for code. In an object pattern the next property's key has one (it becomes a computed key); the end
 * of the whole pattern has one when `endHasSite` (a declaration, a `catch` parameter, a `for…of` head). A
 * rest element copies properties (getters, proxies) and an array pattern steps an iterator before any such
 * place, so defaults followed by them stay opaque, as do defaults whose target is itself a pattern.
 */
export function patternDefaults(pattern: t.Node, binding: boolean, endHasSite: boolean): PatternDefaults {
  const decided = new Set<t.AssignmentPattern>();
  const opaque: OpaqueDefault[] = [];
  const visit = (p: t.Node, nextHasSite: boolean, arrayReason: string | null): void => {
    switch (p.type) {
      case 'ObjectPattern':
        p.properties.forEach((prop, i) => {
          const next = p.properties[i + 1];
          const hasSite = next ? !t.isRestElement(next) : nextHasSite;
          visit(t.isRestElement(prop) ? prop.argument : prop.value, hasSite, arrayReason);
        });
        return;
      case 'ArrayPattern':
        for (const el of p.elements) if (el) visit(el, false, 'inside an array pattern (iterator steps)');
        return;
      case 'RestElement':
        return visit(p.argument, false, arrayReason);
      case 'AssignmentPattern': {
        const reason = !binding
          ? 'assignment target (assigning can throw)'
          : arrayReason
            ? arrayReason
            : !t.isIdentifier(p.left)
              ? 'its target is a pattern (destructuring the value can throw)'
              : !nextHasSite
                ? 'a rest element follows, which can throw before any place for code'
                : null;
        if (reason) opaque.push({ node: p, reason });
        else decided.add(p);
        return visit(p.left, nextHasSite, arrayReason);
      }
      default:
    }
  };
  visit(pattern, endHasSite, null);
  return { decided, opaque };
}

/** The first property of the outermost object pattern: where code before any of its reads can go. */
export function firstProperty(pattern: t.Node): t.ObjectProperty | null {
  if (!t.isObjectPattern(pattern)) return null;
  const first = pattern.properties[0];
  return t.isObjectProperty(first) ? first : null;
}
