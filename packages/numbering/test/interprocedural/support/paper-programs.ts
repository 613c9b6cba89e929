import { namedProgram, type NamedProgram } from './named-program';

/**
 * Melski & Reps Fig. 4/5, rebuilt as in the digest (§9.1): `pow` (u…) and `main` (v…), with the backedges
 * `u5→u3` and `v13→v4` and two call sites of pow. u6/v14 name `GExit`, u9/v17 `GEntry`. Edges are listed so
 * that every vertex's successor order is the paper's: u1:[u2,u3] u3:[u4,u7] v1:[v2,v4] v4:[v5,v15] v5:[v6,v9]
 * v9:[v10,v13] (surrogates after real edges).
 */
export function powProgram(): NamedProgram {
  return namedProgram(
    [
      {
        name: 'main',
        entry: 'v1',
        exit: 'v16',
        globalExit: 'v14',
        globalEntry: 'v17',
        edges: [
          'v1->v2',
          'v2->v3',
          'v3->v4',
          'v4->v5',
          'v4->v15',
          'v5->v6',
          'v5->v9',
          'v6->v7',
          'v7->v8',
          'v8->v9',
          'v9->v10',
          'v9->v13',
          'v10->v11',
          'v11->v12',
          'v12->v13',
          'v13->v4',
          'v15->v16',
        ],
        calls: { v6: 'pow', v10: 'pow' },
      },
      {
        name: 'pow',
        entry: 'u1',
        exit: 'u8',
        globalExit: 'u6',
        globalEntry: 'u9',
        edges: ['u1->u2', 'u2->u3', 'u3->u4', 'u3->u7', 'u4->u5', 'u5->u3', 'u7->u8'],
      },
    ],
    ['main'],
  );
}

/**
 * The digest's §9.4 oracle: recursion (B calls itself at B_k), a loop header right after an entry (parallel
 * surrogate `Entry→v`), and B called from main and from A.
 */
export function recursiveProgram(): NamedProgram {
  return namedProgram(
    [
      {
        name: 'main',
        entry: 'm_e',
        exit: 'm_x',
        globalExit: 'main_GX',
        globalEntry: 'main_GE',
        edges: [
          'm_e->m_a',
          'm_a->m_c1',
          'm_a->m_b',
          'm_c1->m_r1',
          'm_r1->m_b',
          'm_b->m_c2',
          'm_c2->m_r2',
          'm_r2->m_c',
          'm_c->m_a',
          'm_c->m_d',
          'm_d->m_x',
        ],
        calls: { m_c1: 'A', m_c2: 'B' },
      },
      {
        name: 'A',
        entry: 'A_e',
        exit: 'A_x',
        globalExit: 'A_GX',
        globalEntry: 'A_GE',
        edges: [
          'A_e->A_h',
          'A_h->A_c3',
          'A_h->A_y',
          'A_c3->A_r3',
          'A_r3->A_t',
          'A_t->A_h',
          'A_t->A_y',
          'A_y->A_x',
        ],
        calls: { A_c3: 'B' },
      },
      {
        name: 'B',
        entry: 'B_e',
        exit: 'B_x',
        globalExit: 'B_GX',
        globalEntry: 'B_GE',
        edges: [
          'B_e->B_i',
          'B_i->B_j',
          'B_i->B_k',
          'B_j->B_x',
          'B_j->B_l',
          'B_l->B_j',
          'B_k->B_r4',
          'B_r4->B_x',
        ],
        calls: { B_k: 'B' },
      },
    ],
    ['main'],
  );
}
