import type * as TS from 'typescript';
import type { ts as MorphTS } from 'ts-morph';

import { morph, type MorphTs } from './morph.js';
import { readTsconfig, realpathOrSelf, type LoadedProject, type ProjectConfig } from './project.js';
import { ts } from './typescript.js';

/**
 * Typed mode's programs: one per loaded tsconfig, handed to typescript-eslint. Its roots are the
 * files the prefilter kept and the project's declaration files; an import of a project file the
 * prefilter set aside is left unresolved, so the program holds the kept files, the packages they
 * import and nothing else (what those files define reaches the rules through the import graph's
 * settings, not through types). Only the programs are built: no diagnostics are asked for, and
 * the checker binds lazily as rules ask for types.
 *
 * typescript-eslint reads a program with the `typescript` it was installed with. ts-morph builds
 * the program when its bundled TypeScript has the same minor version (same syntax kinds, flags
 * and checker), and the `typescript` peer builds it otherwise, from the tsconfig read again with
 * that copy: no program, node or option crosses between copies of different versions.
 */

/** The major.minor of a TypeScript version string. */
function minor(version: string): string {
  return version.split('.').slice(0, 2).join('.');
}

/** Whether ts-morph's TypeScript can hand its program to typescript-eslint. */
export function morphSharesPrograms(): boolean {
  return minor(morph().ts.version) === minor(ts.version);
}

/** A program per tsconfig that has a kept file, built by ts-morph or by the peer. */
export function typedPrograms(project: LoadedProject, roots: ReadonlySet<string>): TS.Program[] {
  const isDeclaration = (file: string): boolean => /\.d\.[cm]?ts$/.test(file);
  /** A project file the prefilter set aside: left out of the programs. */
  const setAside = (file: string): boolean => {
    const real = realpathOrSelf(file);
    return project.configOf.has(real) && !roots.has(real) && !isDeclaration(real);
  };
  const shared = morphSharesPrograms();
  const programs: TS.Program[] = [];
  for (const config of project.configs) {
    const files = config.path
      ? config.files
      : [...project.configOf].filter(([, owner]) => owner === config).map(([file]) => file);
    const rootNames = files.filter((file) => roots.has(file) || isDeclaration(file));
    if (!rootNames.some((file) => roots.has(file))) continue;
    programs.push(shared ? morphProgram(config, rootNames, setAside) : peerProgram(config, rootNames, setAside));
  }
  return programs;
}

type Resolved = { resolvedModule: MorphTS.ResolvedModuleFull | undefined };

/** The program from a ts-morph project; imports resolve as TypeScript would, less the set-aside files. */
function morphProgram(config: ProjectConfig, rootNames: string[], setAside: (file: string) => boolean): TS.Program {
  const { Project, ts: morphTs } = morph();
  const project = new Project({
    compilerOptions: config.options,
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    resolutionHost: (host, options) => {
      const cache = morphTs.createModuleResolutionCache(host.getCurrentDirectory?.() ?? '', (name) => name, options());
      return {
        resolveModuleNames: (moduleNames, containingFile, _reused, redirected, compilerOptions, containingSource) => {
          const imports = (
            containingSource as unknown as { imports?: readonly MorphTS.StringLiteralLike[] } | undefined
          )?.imports;
          return moduleNames.map((name) => {
            const literal = imports?.find((candidate) => candidate.text === name);
            const mode =
              literal && containingSource
                ? morphTs.getModeForUsageLocation(containingSource, literal, compilerOptions)
                : undefined;
            const { resolvedModule }: Resolved = morphTs.resolveModuleName(
              name,
              containingFile,
              compilerOptions,
              host,
              cache,
              redirected,
              mode,
            );
            return resolvedModule &&
              !resolvedModule.isExternalLibraryImport &&
              setAside(resolvedModule.resolvedFileName)
              ? undefined
              : resolvedModule;
          });
        },
      };
    },
  });
  for (const file of rootNames) project.addSourceFileAtPath(file);
  // Same minor version: typescript-eslint reads this program's nodes and checker as its own.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- one type only while both TypeScript copies are the same version
  return project.getProgram().compilerObject as unknown as TS.Program;
}

/** The program from the `typescript` peer, with the tsconfig read by that copy. */
function peerProgram(config: ProjectConfig, rootNames: string[], setAside: (file: string) => boolean): TS.Program {
  // Options without a tsconfig are the loader's defaults: plain values both copies share.
  // Both copies' CompilerOptions are one type only while their versions are the same.
  /* eslint-disable @typescript-eslint/no-unnecessary-type-assertion */
  const options = config.path
    ? (readTsconfig(ts as unknown as MorphTs, config.path).parsed.options as unknown as TS.CompilerOptions)
    : (config.options as unknown as TS.CompilerOptions);
  /* eslint-enable @typescript-eslint/no-unnecessary-type-assertion */
  const host = ts.createCompilerHost(options, true);
  const cache = ts.createModuleResolutionCache(
    host.getCurrentDirectory(),
    (name) => host.getCanonicalFileName(name),
    options,
  );
  host.resolveModuleNameLiterals = (
    literals,
    containingFile,
    redirectedReference,
    compilerOptions,
    containingSourceFile,
  ) =>
    literals.map((literal) => {
      const mode = ts.getModeForUsageLocation(containingSourceFile, literal, compilerOptions);
      const { resolvedModule } = ts.resolveModuleName(
        literal.text,
        containingFile,
        compilerOptions,
        host,
        cache,
        redirectedReference,
        mode,
      );
      return resolvedModule && !resolvedModule.isExternalLibraryImport && setAside(resolvedModule.resolvedFileName)
        ? { resolvedModule: undefined }
        : { resolvedModule };
    });
  return ts.createProgram({ rootNames, options, host });
}
