import Validate from './validate.js';
import Preview from './preview.js';

// oclif "explicit" command discovery: a fixed table is faster to load than a directory scan.
export const commands = {
  validate: Validate,
  preview: Preview,
};
