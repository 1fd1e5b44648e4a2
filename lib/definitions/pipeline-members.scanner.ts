import { METADATA_KEYS } from '../metadata/metadata-keys';
import { readMethodPipelineMembers } from '../metadata/metadata-store';
import {
  describeMemberRef, isGuardRef, isInterceptorRef, type GuardShape, type InterceptorShape, type PipelineMemberRef, type PipelineMembersRecord,
} from '../metadata/pipeline-options';
import type { ScanScope } from './scan-scope';

type PipelineKey = typeof METADATA_KEYS.guards | typeof METADATA_KEYS.interceptors;

interface MemberKind<T> {
  readonly key: PipelineKey;
  readonly slot: 'guards' | 'interceptors';
  readonly decorator: string;
  readonly expected: string;
  readonly is: (value: unknown) => value is PipelineMemberRef<T>;
}

const GUARDS: MemberKind<GuardShape> = {
  key: METADATA_KEYS.guards, slot: 'guards', decorator: '@UseGuards', expected: 'a guard (a class or an object with canActivate)', is: isGuardRef,
};
const INTERCEPTORS: MemberKind<InterceptorShape> = {
  key: METADATA_KEYS.interceptors, slot: 'interceptors', decorator: '@UseInterceptors', expected: 'an interceptor (a class or an object with intercept)', is: isInterceptorRef,
};

const NO_MEMBERS: readonly never[] = Object.freeze([]);
const NONE: PipelineMembersRecord = Object.freeze({ guards: NO_MEMBERS, interceptors: NO_MEMBERS });

/**
 * The class-level members that are not what their decorator expects (an `undefined` from a
 * circular import, a guard given to `@UseInterceptors`): reported once per class.
 */
export function classPipelineProblems({ cls, onClass }: ScanScope): string[] {
  return [GUARDS, INTERCEPTORS].flatMap((kind) => {
    return onClass[kind.slot].filter((value) => !kind.is(value)).map((value) => `${cls.name}: ${kind.decorator} names ${describeMemberRef(value)}, which is not ${kind.expected}`);
  });
}

/**
 * The guards and interceptors one target is served with: the class's, then the method's, each
 * list in the order written. Method-level members that are not what their decorator expects are
 * reported under the target's label.
 */
export function scanPipelineMembers(scope: ScanScope, member: string, label: string): PipelineMembersRecord {
  const guards = membersOf(scope, member, label, GUARDS);
  const interceptors = membersOf(scope, member, label, INTERCEPTORS);
  if (guards.length === 0 && interceptors.length === 0) return NONE;
  return Object.freeze({ guards, interceptors });
}

function membersOf<T>(scope: ScanScope, member: string, label: string, kind: MemberKind<T>): readonly PipelineMemberRef<T>[] {
  const onClass = scope.onClass[kind.slot];
  const onMethod = readMethodPipelineMembers(kind.key, scope.cls, member);
  if (onClass.length === 0 && onMethod.length === 0) return NO_MEMBERS;
  for (const value of onMethod) {
    if (!kind.is(value)) scope.problems.push(`${label}: ${kind.decorator} names ${describeMemberRef(value)}, which is not ${kind.expected}`);
  }
  return Object.freeze([...onClass, ...onMethod].filter(kind.is));
}
