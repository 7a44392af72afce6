{{/* The name of the objects: the release name, with "-climax" unless it
already says climax. */}}
{{- define "climax.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "climax.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "climax.labels" -}}
{{ include "climax.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Whether a ConfigMap holds config files or the policy. */}}
{{- define "climax.hasConfigMap" -}}
{{- if or .Values.configs.files .Values.policy -}}true{{- end -}}
{{- end -}}

{{/* The pod template's annotations: podAnnotations, and the revisions of
the Secrets climax reads only at start (changing one rolls the pods). */}}
{{- define "climax.podAnnotations" -}}
{{- $a := deepCopy (.Values.podAnnotations | default dict) -}}
{{- with .Values.auth.revision }}
{{- $_ := set $a "climax/auth-revision" (toString .) -}}
{{- end }}
{{- with .Values.approvalKey.revision }}
{{- $_ := set $a "climax/approval-key-revision" (toString .) -}}
{{- end }}
{{- with $a }}
{{- toYaml . -}}
{{- end }}
{{- end -}}
