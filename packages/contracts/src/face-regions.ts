/**
 * The face regions of reports, and the schematic face diagrams draw them on. Without zod, so the
 * analysis engine can type its landmark outlines by these ids; `@roots/contracts/reports`
 * re-exports all of it next to the report schemas.
 */

/**
 * Face regions a trait or an attribution refers to. Reports carry region ids only, never the
 * face's own landmark geometry; diagrams draw {@link FACE_REGION_TEMPLATE}.
 */
export const FACE_REGION_IDS = [
  'face_oval',
  'eyes',
  'right_eye',
  'left_eye',
  'brows',
  'nose',
  'mouth',
  'jaw',
  'cheekbones',
  'skin',
  'hairline',
] as const;
export type FaceRegionId = (typeof FACE_REGION_IDS)[number];

/** One closed outline: [x, y] points in a unit box (x right, y down, 0..1). */
export type TemplatePolygon = ReadonlyArray<readonly [number, number]>;

/**
 * A schematic face in a unit box, with the outlines of each region: what diagrams (web and PDF)
 * draw to show which region supports a trait. Reports never carry a real face's shape.
 */
export const FACE_REGION_TEMPLATE: Record<FaceRegionId, readonly TemplatePolygon[]> = {
  face_oval: [
    [
      [0.5, 0.04],
      [0.74, 0.1],
      [0.88, 0.3],
      [0.88, 0.55],
      [0.78, 0.78],
      [0.62, 0.93],
      [0.5, 0.96],
      [0.38, 0.93],
      [0.22, 0.78],
      [0.12, 0.55],
      [0.12, 0.3],
      [0.26, 0.1],
    ],
  ],
  hairline: [
    [
      [0.26, 0.1],
      [0.5, 0.04],
      [0.74, 0.1],
      [0.8, 0.22],
      [0.5, 0.26],
      [0.2, 0.22],
    ],
  ],
  brows: [
    [
      [0.24, 0.33],
      [0.44, 0.3],
      [0.44, 0.34],
      [0.24, 0.37],
    ],
    [
      [0.56, 0.3],
      [0.76, 0.33],
      [0.76, 0.37],
      [0.56, 0.34],
    ],
  ],
  right_eye: [
    [
      [0.24, 0.43],
      [0.34, 0.39],
      [0.44, 0.43],
      [0.34, 0.46],
    ],
  ],
  left_eye: [
    [
      [0.56, 0.43],
      [0.66, 0.39],
      [0.76, 0.43],
      [0.66, 0.46],
    ],
  ],
  eyes: [
    [
      [0.24, 0.43],
      [0.34, 0.39],
      [0.44, 0.43],
      [0.34, 0.46],
    ],
    [
      [0.56, 0.43],
      [0.66, 0.39],
      [0.76, 0.43],
      [0.66, 0.46],
    ],
  ],
  nose: [
    [
      [0.47, 0.44],
      [0.53, 0.44],
      [0.57, 0.6],
      [0.6, 0.66],
      [0.5, 0.68],
      [0.4, 0.66],
      [0.43, 0.6],
    ],
  ],
  mouth: [
    [
      [0.36, 0.77],
      [0.5, 0.73],
      [0.64, 0.77],
      [0.5, 0.83],
    ],
  ],
  cheekbones: [
    [
      [0.16, 0.5],
      [0.3, 0.5],
      [0.34, 0.58],
      [0.18, 0.6],
    ],
    [
      [0.7, 0.5],
      [0.84, 0.5],
      [0.82, 0.6],
      [0.66, 0.58],
    ],
  ],
  skin: [
    [
      [0.18, 0.6],
      [0.36, 0.6],
      [0.36, 0.7],
      [0.22, 0.72],
    ],
    [
      [0.64, 0.6],
      [0.82, 0.6],
      [0.78, 0.72],
      [0.64, 0.7],
    ],
  ],
  jaw: [
    [
      [0.12, 0.6],
      [0.22, 0.78],
      [0.38, 0.93],
      [0.5, 0.96],
      [0.62, 0.93],
      [0.78, 0.78],
      [0.88, 0.6],
      [0.82, 0.8],
      [0.5, 0.9],
      [0.18, 0.8],
    ],
  ],
};
