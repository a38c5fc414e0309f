/** Types of import-layers.js (read by eslint.config.js as JavaScript, by the tests as TypeScript). */
export declare const ALLOWED_IMPORTS: Readonly<Record<string, readonly string[]>>;
export declare const LAYERS: readonly string[];
export declare function forbiddenImportsOf(layer: string): string[];
