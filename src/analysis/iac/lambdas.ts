import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

import { isSourceFile, SOURCE_EXTENSIONS } from '../files.js';
import { SKIPPED_DIRECTORIES } from '../ignore.js';
import { ts } from '../typescript.js';
import { cloudFormationLambdas } from './cloudformation.js';
import { serverlessLambdas, serverlessTsLambdas } from './serverless.js';
import { bundleEntries } from './bundles.js';
import { cdkApps, cdkLambdas } from './cdk.js';
import type { LambdaEventBroker } from '../../model/handler/consumer-handler.js';

/**
 * Lambda functions an infrastructure file declares, with the event source that invokes each:
 * what a Lambda runs is named there (`Handler: dir/file.export`), not in its code, and so is
 * whether a queue, a topic, a stream or a schedule invokes it. Lambda retries each of those
 * (SQS redrives a batch, asynchronous invocations are retried twice, stream batches until they
 * succeed: https://docs.aws.amazon.com/lambda/latest/dg/invocation-retries.html), so each is a
 * consumer. One reader per format: `cloudformation.ts` (CloudFormation and SAM templates),
 * `serverless.ts` (the Serverless Framework), `cdk.ts` (AWS CDK stacks); `bundles.ts` maps a
 * bundle's name to its source.
 */

/** The Lambda brokers of the handler model an event source stands for. */
export type LambdaTrigger = LambdaEventBroker;

/** A function as a template declares it: its handler string, the folder it is relative to, and how it is invoked. */
export interface LambdaDeclaration {
  /** `dir/file.export`, as `Handler:` or `handler:` has it. */
  handler: string;
  /** The folder the handler's path is relative to (a SAM `CodeUri`, the service's folder). */
  base: string;
  /** The source an esbuild build of the function starts from (SAM's `Metadata.BuildProperties.EntryPoints`). */
  entryPoint?: string;
  triggers: LambdaTrigger[];
  /** The infrastructure file and line that declare it. */
  declaredAt: { file: string; line: number };
}

/** A declared Lambda resolved to the source file and export it runs. */
export interface DeclaredLambda {
  file: string;
  exportName: string;
  trigger: LambdaTrigger;
  declaredAt: { file: string; line: number };
}

/** Infrastructure files by name: SAM's `template.yaml`, `*.cloudformation.yaml`, `*.template.yaml`, `serverless.yml`. */
const TEMPLATE_FILE = /^(?:template|.*[.-]template|.*cloudformation.*)\.ya?ml$/i;
const SERVERLESS_FILE = /^serverless\.ya?ml$/i;
const SERVERLESS_CODE_FILE = /^serverless\.[cm]?[jt]s$/;

/** How deep under the root infrastructure files are looked for (`infra/stacks/queue/template.yaml`). */
const TEMPLATE_DEPTH = 6;

/**
 * The Lambdas the tree's infrastructure files declare, each resolved to a source file of the
 * tree; a declaration whose source cannot be found is left out.
 */
export function declaredLambdas(root: string): {
  lambdas: DeclaredLambda[];
  problems: { file: string; reason: string }[];
} {
  const files = ts.sys.readDirectory(
    root,
    ['.yml', '.yaml', '.json'],
    [...SKIPPED_DIRECTORIES].map((name) => `**/${name}`),
    ['**/*'],
    TEMPLATE_DEPTH,
  );
  const found: DeclaredLambda[] = [];
  const problems: { file: string; reason: string }[] = [];
  let bundles: Map<string, string> | undefined;
  const apps = new Set(cdkApps(files));
  // Services configured in TypeScript or JavaScript (`serverless.ts`), read from their folder.
  const services = ts.sys.readDirectory(
    root,
    ['.ts', '.js', '.mjs', '.cjs'],
    [...SKIPPED_DIRECTORIES].map((name) => `**/${name}`),
    ['**/serverless.ts', '**/serverless.js', '**/serverless.mjs', '**/serverless.cjs'],
    TEMPLATE_DEPTH,
  );
  files.push(...services);
  for (const file of files.sort()) {
    const name = basename(file);
    const read = SERVERLESS_FILE.test(name)
      ? serverlessLambdas(file)
      : SERVERLESS_CODE_FILE.test(name)
        ? serverlessTsLambdas(dirname(file))
        : TEMPLATE_FILE.test(name)
          ? cloudFormationLambdas(file)
          : apps.has(dirname(file)) && name === 'cdk.json'
            ? cdkLambdas(dirname(file), root)
            : { declarations: [] };
    if (read.problem !== undefined) problems.push({ file, reason: read.problem });
    const { declarations } = read;
    if (declarations.length === 0) continue;
    bundles ??= bundleEntries(root);
    for (const declaration of declarations) {
      const source = handlerSource(declaration, bundles);
      if (!source || !source.file.startsWith(root)) continue;
      for (const trigger of new Set(declaration.triggers))
        found.push({ file: source.file, exportName: source.exportName, trigger, declaredAt: declaration.declaredAt });
    }
  }
  return { lambdas: found, problems };
}

/** `dir/file.export` → the source file and export: the path itself, its `src/` source when it names build output, an esbuild entry point, or a bundle of that name. */
function handlerSource(
  declaration: LambdaDeclaration,
  bundles: ReadonlyMap<string, string>,
): { file: string; exportName: string } | undefined {
  const dot = declaration.handler.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const module = declaration.handler.slice(0, dot);
  const exportName = declaration.handler.slice(dot + 1);
  const stem = resolve(declaration.base, module);
  const candidates = [
    ...(declaration.entryPoint === undefined ? [] : [resolve(declaration.base, declaration.entryPoint)]),
    ...withExtensions(stem),
    ...withExtensions(stem.replace(/\/(?:dist|build|out|\.build|\.aws-sam\/build)\//, '/src/')),
    ...withExtensions(join(stem, 'index')),
    // A package's zip built from its `src/` (`fileName: 'output-handler.zip'`, `index.handler`).
    ...withExtensions(resolve(declaration.base, 'src', module)),
  ];
  const bundle = bundles.get(basename(module));
  if (bundle) candidates.push(bundle);
  const file = candidates.find((candidate) => isSourceFile(candidate) && existsSync(candidate));
  return file === undefined ? undefined : { file, exportName };
}

function withExtensions(stem: string): string[] {
  return SOURCE_EXTENSIONS.map((extension) => stem + extension);
}
