/** `GET /docs`: a self-contained reference page rendered from the OpenAPI document; no assets fetched. */
import { escapeHtml } from '../../../lib/escape-html.ts';
import type { TypedApp } from '../../typed-app.ts';

interface OpenApiDoc {
  info: { title: string; description?: string };
  paths: Record<
    string,
    Record<string, { summary?: string; requestBody?: { content?: Record<string, { schema?: unknown }> } }>
  >;
}

export function registerReferencePage(app: TypedApp): void {
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
    const doc = app.swagger() as unknown as OpenApiDoc;
    const sections = Object.entries(doc.paths)
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => {
          const schema = op.requestBody?.content?.['application/json']?.schema;
          const body = schema
            ? `<details><summary>Request body schema</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>`
            : '';
          return `<section><h2><code>${method.toUpperCase()} ${escapeHtml(path)}</code></h2><p>${escapeHtml(op.summary ?? '')}</p>${body}</section>`;
        }),
      )
      .join('\n');
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(doc.info.title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}h2{font-size:1.05rem}pre{background:#f5f5f5;padding:1rem;overflow:auto}section{border-top:1px solid #ddd}</style></head>
<body><h1>${escapeHtml(doc.info.title)}</h1><p>${escapeHtml(doc.info.description ?? '')} Machine-readable: <a href="/openapi.json">/openapi.json</a>.</p>${sections}</body></html>`;
  });
}
