/**
 * Operator commands for the environment's catalog (`catalogCommands`: `catalog import`,
 * `catalog list`). The file format is docs/operations.md "The catalog file".
 */
import { readFile, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { Dependencies } from '../../functions/container';
import { importCatalogFile } from '../../functions/domain/catalog/catalog-file-import';
import { toProductRecord } from '../../functions/domain/catalog/product';
import { ValidationFailed } from '../../functions/domain/errors';
import { formatUsd, toCents } from '../../functions/domain/money';
import { tableLines } from './human-format';
import { type CommandTable, defineCommand } from './ops-command';
import { FilePathOption } from './option-schemas';

type Deps = Pick<Dependencies, 'catalog' | 'productImages'>;

/**
 * `catalog import --file FILE`: upserts every product of a JSON array by product_id. The
 * whole file is checked first, each row's `image` too (a file path relative to FILE and
 * inside its folder, checked by its content and size); one invalid row and nothing is written, every problem
 * is reported by row and field. The pictures are uploaded, then the products written.
 * Products left out of the file stay as they are.
 */
async function importCatalog(deps: Deps, options: { file: string }) {
  let text: string;
  try {
    text = await readFile(options.file, 'utf8');
  } catch (error) {
    throw new ValidationFailed(
      [
        {
          code: 'FILE_UNREADABLE',
          message: `cannot read ${options.file}: ${(error as Error).message}`,
          path: ['file'],
        },
      ],
      `Cannot read ${options.file}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ValidationFailed(
      [
        {
          code: 'MALFORMED_JSON',
          message: `${options.file} is not valid JSON: ${(error as Error).message}`,
          path: ['file'],
        },
      ],
      `${options.file} is not valid JSON; nothing was imported`,
    );
  }
  const folder = await realpath(dirname(resolve(options.file)));
  const parsed = await importCatalogFile(json, {
    catalog: deps.catalog,
    images: deps.productImages,
    readImage: (path) => readInside(folder, path),
  });
  if (!parsed.ok) {
    const count = parsed.issues.length;
    throw new ValidationFailed(
      parsed.issues,
      `${options.file} has ${count} problem${count === 1 ? '' : 's'}; nothing was imported`,
    );
  }
  const active = parsed.products.filter((product) => product.active).length;
  return {
    imported: parsed.products.length,
    active,
    inactive: parsed.products.length - active,
    productIds: parsed.products.map((p) => p.productId),
  };
}

/**
 * A picture's bytes, read only from inside the catalog file's folder (its subfolders too):
 * an absolute path, a `..` that climbs out, or a link that points out is refused, so a
 * catalog file cannot make the import read (and upload) any other file of the machine.
 */
async function readInside(folder: string, path: string): Promise<Uint8Array> {
  const outside = () => new Error("it is outside the catalog file's folder");
  if (isAbsolute(path)) throw outside();
  const target = await realpath(resolve(folder, path));
  const fromFolder = relative(folder, target);
  if (fromFolder === '' || fromFolder.startsWith('..') || isAbsolute(fromFolder)) throw outside();
  return readFile(target);
}

/** `catalog list`: every product, inactive ones too, as the import file writes them. */
async function listCatalog(deps: Deps) {
  return { products: (await deps.catalog.listAll()).map(toProductRecord) };
}

export const catalogCommands: CommandTable = {
  'catalog import': defineCommand({
    summary:
      'Upsert the products of a JSON file by product_id, uploading their pictures; a file with any invalid row or picture changes nothing',
    options: {
      file: {
        schema: FilePathOption,
        placeholder: 'FILE',
        description: 'A JSON array of products (docs/operations.md, "The catalog file")',
      },
    },
    async run(deps, options) {
      const result = await importCatalog(deps, options);
      return {
        json: result,
        text: [
          `Imported ${result.imported} products (${result.active} active, ${result.inactive} inactive). Products not in the file are unchanged.`,
        ],
      };
    },
  }),

  'catalog list': defineCommand({
    summary: "List the environment's catalog, inactive products too",
    options: {},
    async run(deps) {
      const result = await listCatalog(deps);
      return {
        json: result,
        text:
          result.products.length === 0
            ? ['The catalog is empty.']
            : tableLines(
                ['PRODUCT ID', 'NAME', 'CATEGORY', 'PRICE', 'UNIT', 'ACTIVE', 'IMAGE'],
                result.products.map((p) => [
                  p.product_id,
                  p.name,
                  p.category,
                  formatUsd(toCents(p.price)),
                  p.unit,
                  String(p.active),
                  p.image,
                ]),
              ),
      };
    },
  }),
};
