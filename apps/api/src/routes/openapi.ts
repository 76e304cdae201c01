// This API's OpenAPI 3.1 description (http/openapi.ts), built once from the operations the routes declare.
import { Router } from 'express';
import { z } from 'zod';
import { buildOpenApi, type OpenApiFeatures } from '../http/openapi.ts';
import { route } from '../http/openapi-route.ts';

const getOpenApi = route({
  method: 'get',
  path: '/openapi.json',
  tag: 'Health',
  summary: 'This description (OpenAPI 3.1)',
  auth: 'none',
  ok: { schema: z.looseObject({ openapi: z.string() }) },
});

export function openApiRouter(features: OpenApiFeatures): Router {
  const router = Router();
  const openApi = JSON.stringify(buildOpenApi(features));
  getOpenApi(router, (_req, res) => {
    res.type('application/json').send(openApi);
  });
  return router;
}
