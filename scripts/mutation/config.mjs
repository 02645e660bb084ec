// Shared by the parts of scripts/mutation.mjs: the root of the tree under test and the cache folder.

import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CACHE_DIR = path.join(ROOT, ".tmp", "mutation");
