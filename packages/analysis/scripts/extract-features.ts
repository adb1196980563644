import { datasetDir } from '../src/training/dataset.js';
import { loadOrBuildCache } from '../src/training/feature-cache.js';

const cache = await loadOrBuildCache(datasetDir(process.argv[2]));
console.error(`cache ${cache.version}: ${cache.rows.length} rows, ${cache.missing.length} images without a face`);
