declare module 'parse-prometheus-text-format' {
  /** Families as prom2json prints them (values as strings). */
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
