/**
 * Request/response codecs: the content type and the bytes travel together, so a payload cannot be sent with the wrong
 * `ContentType` (which the container rejects with a 415 ModelError).
 */

/** A body ready for invokeEndpoint: spread it into the input (`{ endpointName, ...jsonBody(x) }`). */
export interface EncodedBody {
  readonly body: Uint8Array;
  readonly contentType: string;
}

export interface Codec<In, Out> {
  readonly contentType: string;
  encode(value: In): EncodedBody;
  decode(body: Uint8Array): Out;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

export const JSON_CONTENT_TYPE = 'application/json';
export const CSV_CONTENT_TYPE = 'text/csv';
export const OCTET_STREAM = 'application/octet-stream';

export type CsvValue = string | number | boolean | null | undefined;

/** JSON in, JSON out (`application/json`). */
export const jsonCodec: Codec<unknown, unknown> = {
  contentType: JSON_CONTENT_TYPE,
  encode: (value) => ({ body: encoder.encode(JSON.stringify(value)), contentType: JSON_CONTENT_TYPE }),
  decode: (body) => JSON.parse(decoder.decode(body)),
};

/** `application/json` body of `value`. */
export function jsonBody(value: unknown): EncodedBody {
  return jsonCodec.encode(value);
}

/** One CSV field: quoted when it holds a comma, quote, CR or LF, with quotes doubled (RFC 4180). */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new Error(`CSV feature value ${value} is not a finite number`);
  }
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A feature vector as one CSV line, no header and no trailing newline (what XGBoost / Linear Learner expect). */
export function csvLine(values: readonly CsvValue[]): string {
  return values.map(csvField).join(',');
}

/** Several feature vectors, one line each, `\n`-separated. */
export function csvLines(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map(csvLine).join('\n');
}

/** Parses CSV text (RFC 4180 quoting; `\n` or `\r\n` line ends) into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += c;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** One feature vector in, the CSV response (e.g. `0.87` or `0.1,0.9`) out as rows of numbers. */
export const csvCodec: Codec<readonly CsvValue[], number[][]> = {
  contentType: CSV_CONTENT_TYPE,
  encode: (values) => ({ body: encoder.encode(csvLine(values)), contentType: CSV_CONTENT_TYPE }),
  decode: (body) => parseCsv(decoder.decode(body).trim()).map((row) => row.map(Number)),
};

/** `text/csv` body of one feature vector. */
export function csvBody(values: readonly CsvValue[]): EncodedBody {
  return csvCodec.encode(values);
}

/** Bytes as they are, under a content type of your choosing (images, serialized tensors, ...). */
export function rawCodec(contentType: string = OCTET_STREAM): Codec<Uint8Array | string, Uint8Array> {
  return {
    contentType,
    encode: (value) => ({ body: typeof value === 'string' ? encoder.encode(value) : value, contentType }),
    decode: (body) => body,
  };
}
