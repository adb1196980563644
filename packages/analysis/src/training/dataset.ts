import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { HERITAGE_GROUP_IDS, type HeritageGroupId } from '../heritage/groups.js';

/** The FairFace dev set kept in the repository: packages/analysis/data/fairface-dev (CC BY 4.0, see its SOURCES.md). */
export const DEFAULT_DATASET_DIR = fileURLToPath(new URL('../../data/fairface-dev', import.meta.url));

/** FairFace's own label names, mapped to our ids. */
const FAIRFACE_LABELS: Record<string, HeritageGroupId> = {
  White: 'white',
  Black: 'black',
  Latino_Hispanic: 'latino_hispanic',
  'East Asian': 'east_asian',
  'Southeast Asian': 'southeast_asian',
  Indian: 'indian',
  'Middle Eastern': 'middle_eastern',
};

export interface LabelledImage {
  file: string;
  label: number;
  gender: string;
  age: string;
}

/** `ROOTS_DATASET_DIR`, else the first CLI argument, else the monorepo-relative default. */
export function datasetDir(argument?: string): string {
  const fromEnv = process.env.ROOTS_DATASET_DIR;
  if (fromEnv) return path.resolve(fromEnv);
  if (argument) return path.resolve(argument);
  return DEFAULT_DATASET_DIR;
}

export async function readLabels(dir: string): Promise<LabelledImage[]> {
  const text = await readFile(path.join(dir, 'labels.csv'), 'utf8');
  const [header, ...rows] = text.trim().split(/\r?\n/);
  if (header?.trim() !== 'file,race,age,gender') throw new Error(`unexpected labels.csv header: ${header}`);
  return rows.map((row) => {
    const [file = '', race = '', age = '', gender = ''] = row.split(',');
    const id = FAIRFACE_LABELS[race];
    if (!id) throw new Error(`unknown race label ${race}`);
    return { file, label: HERITAGE_GROUP_IDS.indexOf(id), gender, age };
  });
}
