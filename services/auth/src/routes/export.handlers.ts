import type { authApi } from '@hoptrack/proto';
import type { Handlers } from '@hoptrack/runtime';
import type { DataExports } from '../domain/exports';

type ExportHandlers = Pick<Handlers<typeof authApi>, 'requestExport' | 'exports' | 'downloadExport'>;

/** /api/me/export(s): a copy of everything the person has on Hoptrack (issue 24). */
export function exportHandlers(exports: DataExports): ExportHandlers {
  return {
    requestExport: async (request, reply) => {
      const { created, view } = await exports.request(request.auth.userId, request.id);
      // 202: the job started; 200: one was already being prepared, and this is it.
      return reply.status(created ? 202 : 200).send(view);
    },

    exports: async (request) => exports.list(request.auth.userId),

    // The zip is media's: the answer sends the client to a signed link that works for minutes.
    downloadExport: async (request, reply) => {
      const url = await exports.downloadUrl(request.auth.userId, request.params.id);
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    },
  };
}
